// cr-schema-invalid: custom resources the API server refuses, checked against their CRD (from
// the bundle or the --cluster snapshot) as apiextensions-apiserver does; and cr-rules-unchecked:
// the CRD's CEL rules (x-kubernetes-validations) that apply to a resource and were not evaluated.
#include <fmt/format.h>

#include "analysis/context.h"
#include "model/units.h"

namespace footprint {

namespace {

std::string crd_source(const CustomResourceCheck& check) {
  return fmt::format("CRD {}{}", check.crd->name,
                     check.crd_from_cluster ? " (from the cluster snapshot)" : "");
}

void report_version(const CustomResourceCheck& check, Findings& out) {
  const Object& object = *check.object;
  std::string why = check.version == CustomResourceCheck::Version::kMissing
                        ? "does not define it"
                        : "defines it with served: false";
  std::string served =
      check.served.empty() ? "none" : fmt::format("{}", fmt::join(check.served, ", "));
  Finding& f = out.add(
      object, Severity::kHigh,
      fmt::format("{} is written as {}, but {} {}: the API server does not serve that version, "
                  "so the install fails with \"no matches for kind \\\"{}\\\" in version "
                  "\\\"{}\\\"\". Served versions: {}.",
                  object.display(), object.api_version, crd_source(check), why, object.kind,
                  object.api_version, served),
      fmt::format("Write apiVersion {}/{} (a served version of the CRD), or serve version {} in "
                  "the CRD.",
                  object.group, check.served.empty() ? "VERSION" : check.served.front(),
                  object.version),
      object.node.get("apiVersion"));
  f.summary = fmt::format("{} names version {}, which its CRD does not serve", object.display(),
                          object.version);
}

void report_violation(const CustomResourceCheck& check, const SchemaViolation& v, Findings& out) {
  const Object& object = *check.object;
  std::string rules =
      check.schema.cel_rules == 0
          ? ""
          : fmt::format(" The CRD's {} on this object {} not evaluated here.",
                        count_of(check.schema.cel_rules, "x-kubernetes-validations rule"),
                        check.schema.cel_rules == 1 ? "was" : "were");
  if (v.kind == SchemaViolation::Kind::kUnknownField) {
    Finding& f = out.add(
        object, Severity::kMedium,
        fmt::format("{}: field {} is not in the schema of {} version {}. kubectl apply (strict "
                    "field validation by default) refuses the object with `{}`; a request "
                    "without field validation, as Helm 3 sends, has the API server drop the field "
                    "with a warning, so the setting silently has no effect.{}",
                    object.display(), v.path, crd_source(check), object.version, v.error, rules),
        fmt::format("Remove {} or move it to the field the schema defines (check the CRD's "
                    "version for its spelling).",
                    v.path),
        v.at);
    f.key = fmt::format("{}:unknown", v.path);
    f.summary = fmt::format("{}: unknown field {}", object.display(), v.path);
    return;
  }
  std::string refusal =
      v.kind == SchemaViolation::Kind::kObjectMeta
          ? fmt::format("The API server refuses {} on the metadata check every object gets: `{}`.",
                        object.display(), v.error)
          : fmt::format("The API server refuses {} against the schema of {} version {}: `{}`.",
                        object.display(), crd_source(check), object.version, v.error);
  Finding& f = out.add(
      object, Severity::kHigh,
      fmt::format("{} The install fails at this object.{}", refusal, rules),
      v.value.empty()
          ? fmt::format("Set {} as the schema requires.", v.path)
          : fmt::format("Change {} (now {}) to a value the schema allows.", v.path, v.value),
      v.at);
  f.key = fmt::format("{}:{}", v.path, v.error);
  f.summary = fmt::format("{} is refused: {}", object.display(), v.error);
}

void run_cr_schema_invalid(const Context& ctx, Findings& out) {
  for (const CustomResourceCheck& check : ctx.custom_resources) {
    if (check.version != CustomResourceCheck::Version::kServed) {
      report_version(check, out);
      continue;
    }
    for (const SchemaViolation& v : check.schema.violations)
      report_violation(check, v, out);
  }
}

void run_cr_rules_unchecked(const Context& ctx, Findings& out) {
  for (const CustomResourceCheck& check : ctx.custom_resources) {
    uint32_t n = check.schema.cel_rules;
    if (n == 0) continue;
    const Object& object = *check.object;
    Finding& f = out.add(
        object, Severity::kInfo,
        fmt::format("{} is checked against the schema of {} version {}, but {} (CEL) on its "
                    "fields {} not evaluated: footprint has no CEL evaluator, and the API server "
                    "may still refuse the object on {}.",
                    object.display(), crd_source(check), object.version,
                    count_of(n, "x-kubernetes-validations rule"), n == 1 ? "was" : "were",
                    n == 1 ? "it" : "them"),
        "Check the object with `kubectl apply --dry-run=server` against a cluster that has the "
        "CRD.");
    f.summary = fmt::format("{}: {} not evaluated", object.display(), count_of(n, "CEL rule"));
  }
}

}  // namespace

extern const Check kCrSchemaInvalid{
    .id = "cr-schema-invalid",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description =
        "Custom resources that their CRD's schema refuses, or whose version it does "
        "not serve.",
    .run = run_cr_schema_invalid,
    .rationale =
        "The API server validates a custom resource against the structural schema of the "
        "version it names (type, format, enum, required, bounds, lengths, patterns, list types, "
        "embedded resources, after defaulting), and its name and namespace as it checks every "
        "object's, and refuses it on any violation: the install "
        "fails halfway, at that object. High for such a violation and for a version the CRD "
        "does not serve; medium for a field the schema does not declare, which kubectl apply "
        "refuses and a Helm install silently drops.",
    .fix = "Correct the field to what the CRD's schema allows, or use a served version.",
    .breaks_on_install = true,
};

extern const Check kCrRulesUnchecked{
    .id = "cr-rules-unchecked",
    .min_severity = Severity::kInfo,
    .max_severity = Severity::kInfo,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description =
        "Custom resources whose CRD has CEL validation rules footprint did not "
        "evaluate.",
    .run = run_cr_rules_unchecked,
    .rationale =
        "x-kubernetes-validations rules are CEL expressions the API server evaluates on "
        "create; footprint has no CEL evaluator, so it says how many it left out rather "
        "than pass the object silently. Info: nothing is known to be wrong.",
    .fix = "Dry-run the object against a cluster with the CRD (kubectl apply --dry-run=server).",
};

}  // namespace footprint
