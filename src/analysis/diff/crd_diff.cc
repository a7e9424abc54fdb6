// CRD upgrade safety: what replacing each CRD of OLD with NEW's does to the objects already
// stored, argued from the API server's CRD update validation
// (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go):
// - ValidateCustomResourceDefinitionStoredVersions: every entry of status.storedVersions "must
//   appear in spec.versions". The status survives an update, so a version OLD stored objects in
//   cannot leave spec.versions.
// - ValidateCustomResourceDefinitionSpecUpdate: once Established, spec.scope and
//   spec.names.kind are immutable (group and plural make up the name, so they never change).
// The schema rules follow from what the API server does to stored objects: it prunes fields the
// schema does not declare, and validates every write against the new schema.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "analysis/context.h"
#include "analysis/diff/diff.h"
#include "analysis/models/delivery_paths.h"
#include "model/kubectl_json.h"
#include "util/strings.h"

namespace footprint {

namespace {

struct DiffedVersion {
  std::string name;
  bool served = false;
  bool storage = false;
  yaml::Node schema;  // openAPIV3Schema
};

struct CrdShape {
  const Object* object = nullptr;
  std::string kind;
  std::string scope;
  std::string conversion;  // spec.conversion.strategy; "None" when absent (the default)
  std::vector<DiffedVersion> versions;

  const DiffedVersion* find(std::string_view name) const {
    for (const DiffedVersion& v : versions)
      if (v.name == name) return &v;
    return nullptr;
  }
  // The storage version, or "" when not exactly one is marked (crd-storage-version reports that).
  std::string storage() const {
    std::string found;
    for (const DiffedVersion& v : versions) {
      if (!v.storage) continue;
      if (!found.empty()) return "";
      found = v.name;
    }
    return found;
  }
};

CrdShape read_crd(const Object& crd) {
  CrdShape shape;
  shape.object = &crd;
  yaml::Node spec = crd.node.get("spec");
  shape.kind = spec.at({"names", "kind"}).str();
  shape.scope = spec.get("scope").str();
  shape.conversion = spec.at({"conversion", "strategy"}).str();
  if (shape.conversion.empty()) shape.conversion = "None";
  yaml::Node versions = spec.get("versions");
  for (size_t i = 0; i < versions.size(); ++i) {
    yaml::Node v = versions.item(i);
    shape.versions.push_back(
        {std::string(v.get("name").str()), kubectl_bool(v.get("served")).value_or(false),
         kubectl_bool(v.get("storage")).value_or(false), v.at({"schema", "openAPIV3Schema"})});
  }
  return shape;
}

std::vector<std::string> scalar_list(const yaml::Node& list) {
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i)
    out.emplace_back(list.item(i).is_scalar() ? list.item(i).text() : "");
  return out;
}

// Differences between two schemas of one version that break objects written under the old one.
struct SchemaBreaks {
  std::vector<std::string> removed;   // fields, with their path
  std::vector<std::string> retyped;   // "spec.size: integer -> string"
  std::vector<std::string> required;  // fields now required
  std::vector<std::string> narrowed;  // "spec.mode: no longer allows fast"
};

void compare_schema(const yaml::Node& before, const yaml::Node& after, const std::string& path,
                    SchemaBreaks& out) {
  if (!before.is_mapping() || !after.is_mapping()) return;
  std::string_view old_type = before.get("type").str();
  std::string_view new_type = after.get("type").str();
  if (!old_type.empty() && !new_type.empty() && old_type != new_type) {
    out.retyped.push_back(
        fmt::format("{}: {} -> {}", path.empty() ? "." : path, old_type, new_type));
    return;  // what lies below the old type no longer applies
  }
  std::vector<std::string> old_enum = scalar_list(before.get("enum"));
  std::vector<std::string> new_enum = scalar_list(after.get("enum"));
  if (!new_enum.empty()) {
    std::vector<std::string> dropped;
    for (const std::string& value : old_enum)
      if (!contains(new_enum, value)) dropped.push_back(value);
    if (old_enum.empty())
      out.narrowed.push_back(fmt::format("{}: now only {}", path, joined(new_enum)));
    else if (!dropped.empty())
      out.narrowed.push_back(fmt::format("{}: no longer allows {}", path, joined(dropped)));
  }
  std::vector<std::string> old_required = scalar_list(before.get("required"));
  for (const std::string& name : scalar_list(after.get("required")))
    if (!contains(old_required, name))
      out.required.push_back(path.empty() ? name : fmt::format("{}.{}", path, name));

  yaml::Node old_props = before.get("properties");
  yaml::Node new_props = after.get("properties");
  bool keeps_unknown =
      kubectl_bool(after.get("x-kubernetes-preserve-unknown-fields")).value_or(false);
  for (size_t i = 0; i < old_props.size(); ++i) {
    std::string name(old_props.key(i).str());
    std::string child = path.empty() ? name : fmt::format("{}.{}", path, name);
    yaml::Node next = new_props.get(name);
    if (!next) {
      if (!keeps_unknown) out.removed.push_back(child);
      continue;
    }
    compare_schema(old_props.value(i), next, child, out);
  }
  compare_schema(before.get("items"), after.get("items"), path + "[*]", out);
}

// The paths of --deploy-with that never upgrade this crds/ CRD, with their fixes; empty when
// --deploy-with was not given or every path given upgrades it.
std::vector<PathVerdict> skipping_paths(const Context& ctx, const Object& crd) {
  std::vector<PathVerdict> out;
  for (DeliveryPath p : ctx.deploy_with)
    if (auto v = crds_dir_not_upgraded(p, crd, installed_as_chart(ctx.bundle))) out.push_back(*v);
  return out;
}

// The paths of --deploy-with on which NEW's CRD does not arrive: those that never upgrade it, and
// those whose apply of it fails (a size limit: client-side apply's annotation, the request body,
// etcd), with their reasons and fixes.
std::vector<PathVerdict> paths_not_reached(const Context& ctx, const Object& crd) {
  bool chart = installed_as_chart(ctx.bundle);
  auto size = std::find_if(ctx.sizes.begin(), ctx.sizes.end(),
                           [&](const ObjectSize& s) { return s.object == &crd; });
  std::vector<PathVerdict> out;
  for (DeliveryPath p : ctx.deploy_with) {
    std::optional<PathVerdict> applied;
    if (size != ctx.sizes.end() && size->sizes) applied = object_verdict(p, *size, chart);
    if (applied && applied->outcome == Outcome::kFails) {
      out.push_back(std::move(*applied));
    } else if (auto skipped = crds_dir_not_upgraded(p, crd, chart)) {
      out.push_back(std::move(*skipped));
    }
  }
  return out;
}

// How NEW's CRD reaches the cluster on upgrade on the paths of --deploy-with.
std::string delivery_on_chosen_paths(const Context& ctx, const Object& crd) {
  std::vector<PathVerdict> missed = paths_not_reached(ctx, crd);
  if (missed.empty()) {
    return fmt::format(
        "It reaches the cluster on the paths given ({}){}.",
        ctx.deploy_with.size() == 1 ? path_name(ctx.deploy_with.front()) : "each of them",
        in_helm_crds_dir(crd) ? ": they upgrade a chart's crds/ like any object" : "");
  }
  std::string text;
  for (const PathVerdict& v : missed) {
    text += fmt::format("{}This change will not reach the cluster with {}: {} {}",
                        text.empty() ? "" : " ", path_name(v.path), v.why, v.fix);
  }
  return text;
}

// How NEW's CRD reaches the cluster on upgrade, said once per CRD that changes.
std::string delivery(const Context& ctx, const Object& crd) {
  const std::string& source = crd.helm_source;
  std::string how;
  if (!ctx.deploy_with.empty()) {
    how = delivery_on_chosen_paths(ctx, crd);
  } else if (in_helm_crds_dir(crd)) {
    return fmt::format(
        "Helm never upgrades CRDs in a chart's crds/ directory ({}): `helm upgrade` leaves the "
        "old definition in place, so this change needs `kubectl apply --server-side -f` of that "
        "file before the upgrade.",
        source);
  } else {
    how = source.empty() ? "Applying the new manifests replaces it."
                         : "Helm applies it with the upgrade (it is a template).";
  }
  if (!ctx.hidden.empty())
    how += " The operator also writes CRDs at run time, so it may apply its own on start.";
  return how;
}

const ConversionWiring* wiring_of(const Context& ctx, const Object* crd) {
  for (const ConversionWiring& w : ctx.conversions)
    if (w.crd == crd) return &w;
  return nullptr;
}

class CrdComparison {
 public:
  CrdComparison(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out)
      : old_(old_side.context), new_(new_side.context), out_(out) {}

  void compare(const CrdShape& before, const CrdShape& after) {
    subject_ = "CustomResourceDefinition " + after.object->name;
    size_t first = out_.size();
    compare_identity(before, after);
    compare_delivery(before, after);
    compare_versions(before, after);
    compare_conversion(before, after);
    compare_schemas(before, after);
    std::string how = delivery(new_, *after.object);
    for (size_t i = first; i < out_.size(); ++i)
      out_[i].fix = out_[i].fix.empty() ? how : out_[i].fix + " " + how;
  }

  void removed(const CrdShape& before) {
    const Object& crd = *before.object;
    Change c = make(Severity::kLow, "removed from the bundle");
    c.subject = "CustomResourceDefinition " + crd.name;
    c.location = location_of(old_, crd);
    if (in_helm_crds_dir(crd)) {
      c.severity = Severity::kInfo;
      c.consequence = "It stays in the cluster: Helm never deletes CRDs of a crds/ directory.";
    } else if (!crd.helm_source.empty() && crd.annotation("helm.sh/resource-policy") != "keep") {
      c.severity = Severity::kCritical;
      c.consequence = fmt::format(
          "`helm upgrade` deletes what the new release no longer renders, and deleting a CRD "
          "deletes every {} object stored under it.",
          before.kind);
      c.fix =
          "Keep the CRD in the chart, or annotate it helm.sh/resource-policy: keep in the old "
          "release before upgrading.";
    } else if (!crd.helm_source.empty()) {
      c.consequence =
          "It stays in the cluster, with its objects: helm.sh/resource-policy: keep makes `helm "
          "upgrade` leave it, and the release no longer manages it.";
      c.fix = "Delete it by hand once nothing uses its kind, or keep it in the chart.";
    } else {
      c.consequence =
          "`kubectl apply` leaves it in the cluster (unless run with --prune); its objects stay.";
    }
    out_.push_back(std::move(c));
  }

 private:
  Change make(Severity severity, std::string change) const {
    Change c;
    c.area = "crds";
    c.severity = severity;
    c.subject = subject_;
    c.change = std::move(change);
    c.location = location_;
    return c;
  }

  void compare_identity(const CrdShape& before, const CrdShape& after) {
    location_ = location_of(new_, *after.object);
    if (before.scope != after.scope) {
      Change c =
          make(Severity::kCritical, fmt::format("scope {} -> {}", before.scope, after.scope));
      c.consequence =
          "The API server refuses the update: spec.scope is immutable once the CRD is "
          "established (field is immutable).";
      c.fix =
          "Keep the scope; a new scope needs a new CRD (another group or plural) and a "
          "migration of the objects.";
      out_.push_back(std::move(c));
    }
    if (before.kind != after.kind) {
      Change c = make(Severity::kCritical, fmt::format("kind {} -> {}", before.kind, after.kind));
      c.consequence =
          "The API server refuses the update: spec.names.kind is immutable once the CRD is "
          "established.";
      c.fix = "Keep the kind; rename through a new CRD and a migration.";
      out_.push_back(std::move(c));
    }
  }

  // Helm deletes what the old release's manifest holds and the new one does not; CRDs of crds/
  // are never part of a release's manifest, so moving a CRD there from templates/ deletes it.
  void compare_delivery(const CrdShape& before, const CrdShape& after) {
    const Object& old_crd = *before.object;
    if (old_crd.helm_source.empty() || in_helm_crds_dir(old_crd) ||
        !in_helm_crds_dir(*after.object) || old_crd.annotation("helm.sh/resource-policy") == "keep")
      return;
    Change c = make(Severity::kCritical, "moved from templates/ to crds/");
    c.consequence = fmt::format(
        "`helm upgrade` deletes what the old release rendered and the new one does not, and "
        "CRDs of crds/ are not part of a release: the CRD is deleted, and every {} with it.",
        before.kind);
    c.fix =
        "Annotate the CRD helm.sh/resource-policy: keep in the installed release first (or "
        "keep it in templates/).";
    out_.push_back(std::move(c));
  }

  void compare_versions(const CrdShape& before, const CrdShape& after) {
    std::string old_storage = before.storage();
    std::string new_storage = after.storage();
    for (const DiffedVersion& v : before.versions) {
      const DiffedVersion* now = after.find(v.name);
      if (!now && v.name == old_storage) {
        Change c = make(Severity::kCritical,
                        fmt::format("version {} removed; it is the storage version", v.name));
        c.consequence = fmt::format(
            "Objects are stored as {0}, so status.storedVersions lists it, and the API server "
            "refuses a CRD whose spec.versions lacks a stored version (status.storedVersions: "
            "must appear in spec.versions): the upgrade fails on this CRD.",
            v.name);
        c.fix = fmt::format(
            "Keep {0} in spec.versions (served: false if it must not be used) for one release; "
            "migrate the stored objects to {1} and remove {0} from status.storedVersions before "
            "dropping it.",
            v.name, new_storage.empty() ? "the new storage version" : new_storage);
        out_.push_back(std::move(c));
      } else if (!now) {
        Change c = make(Severity::kHigh, fmt::format("version {} removed", v.name));
        c.consequence = fmt::format(
            "Clients and controllers that use {0} get 404 after the upgrade. If an earlier "
            "release stored objects as {0}, it is still in status.storedVersions and the API "
            "server refuses the update.",
            v.name);
        c.fix = fmt::format(
            "Check `kubectl get crd {} -o jsonpath='{{.status.storedVersions}}'`; keep {} "
            "with served: false for a release before removing it.",
            after.object->name, v.name);
        out_.push_back(std::move(c));
      } else if (v.served && !now->served) {
        Change c = make(v.name == old_storage ? Severity::kHigh : Severity::kMedium,
                        fmt::format("version {} no longer served", v.name));
        c.consequence = fmt::format(
            "Requests for {} get 404; objects stay stored and readable through the served "
            "versions.",
            v.name);
        c.fix =
            fmt::format("Move every client and manifest of {} to a served version first.", v.name);
        out_.push_back(std::move(c));
      }
    }
    if (!old_storage.empty() && !new_storage.empty() && old_storage != new_storage &&
        after.find(old_storage)) {
      Change c =
          make(Severity::kLow, fmt::format("storage version {} -> {}", old_storage, new_storage));
      c.consequence = fmt::format(
          "New writes are stored as {1}; objects written before stay stored as {0} until "
          "rewritten, and status.storedVersions keeps {0}, so a later release cannot drop {0} "
          "until they are migrated.",
          old_storage, new_storage);
      c.fix = fmt::format(
          "After the upgrade, rewrite every object (a storage version migration) and remove {} "
          "from status.storedVersions.",
          old_storage);
      out_.push_back(std::move(c));
    }
    std::vector<std::string> added;
    for (const DiffedVersion& v : after.versions)
      if (!before.find(v.name)) added.push_back(v.name);
    if (!added.empty()) {
      bool kept = std::any_of(before.versions.begin(), before.versions.end(),
                              [&](const DiffedVersion& v) { return after.find(v.name); });
      Change c = make(
          Severity::kInfo,
          fmt::format("{} {} added", added.size() == 1 ? "version" : "versions", joined(added)));
      c.consequence = kept ? "Served alongside the existing versions."
                           : fmt::format("{} every version the CRD had (see the versions removed).",
                                         added.size() == 1 ? "It replaces" : "They replace");
      out_.push_back(std::move(c));
    }
  }

  void compare_conversion(const CrdShape& before, const CrdShape& after) {
    if (before.conversion == after.conversion) return;
    // The API server converts only between versions, and every stored version stays in
    // spec.versions (ValidateCustomResourceDefinitionStoredVersions): with one version the
    // strategy is never used.
    if (after.versions.size() <= 1) {
      Change c = make(Severity::kInfo,
                      fmt::format("conversion {} -> {}", before.conversion, after.conversion));
      c.consequence =
          "None yet: the CRD has a single version, so the API server never converts its objects" +
          std::string(after.conversion == "Webhook"
                          ? " and never calls the webhook; it is called once a second version "
                            "is added."
                          : ".");
      c.fix = after.conversion == "Webhook"
                  ? "Roll out the webhook's backend and CA before a release adds a version."
                  : "None needed.";
      out_.push_back(std::move(c));
      return;
    }
    if (after.conversion == "Webhook") {
      const ConversionWiring* w = wiring_of(new_, after.object);
      bool broken = w && (w->service_missing() || w->ca_missing() || w->port_mismatch());
      Change c = make(broken ? Severity::kHigh : Severity::kMedium,
                      fmt::format("conversion {} -> Webhook", before.conversion));
      c.consequence =
          "Every request for a version other than the stored one goes through the conversion "
          "webhook: until its backend runs and is trusted, those requests fail";
      c.consequence += broken ? ", and the new bundle's webhook backend is not wired (see the "
                                "crd-conversion findings)."
                              : ".";
      c.fix = "Roll out the webhook's backend and CA before the CRD update.";
      out_.push_back(std::move(c));
    } else {
      Change c = make(Severity::kMedium,
                      fmt::format("conversion {} -> {}", before.conversion, after.conversion));
      c.consequence =
          "Objects are no longer converted between versions: only apiVersion is rewritten, so "
          "fields that differ between versions are lost or rejected.";
      c.fix = "Keep the webhook until one version is served and stored.";
      out_.push_back(std::move(c));
    }
  }

  void compare_schemas(const CrdShape& before, const CrdShape& after) {
    for (const DiffedVersion& v : after.versions) {
      const DiffedVersion* old_v = before.find(v.name);
      if (!v.served || !old_v || !old_v->schema || !v.schema) continue;
      SchemaBreaks breaks;
      compare_schema(old_v->schema, v.schema, "", breaks);
      // `what` is "one|many": "field type changed|field types changed".
      auto add = [&](Severity severity, const std::vector<std::string>& items,
                     std::string_view what, std::string_view consequence, std::string_view fix) {
        if (items.empty()) return;
        size_t bar = what.find('|');
        Change c = make(
            severity, fmt::format("{}: {} {}", v.name, items.size(),
                                  items.size() == 1 ? what.substr(0, bar) : what.substr(bar + 1)));
        c.consequence = consequence;
        c.fix = fix;
        c.details = items;
        out_.push_back(std::move(c));
      };
      add(Severity::kHigh, breaks.retyped, "field type changed|field types changed",
          "Stored objects that hold the old type fail validation on their next write, so the "
          "controllers that update them get errors.",
          "Add a new field (or version) instead of changing a type.");
      add(Severity::kHigh, breaks.required, "field made required|fields made required",
          "Stored objects without these fields are refused on their next write.",
          "Default the fields instead of requiring them, or fill them in before the upgrade.");
      add(Severity::kHigh, breaks.narrowed, "enum narrowed|enums narrowed",
          "Stored objects with a value no longer allowed are refused on their next write.",
          "Keep the old values allowed for a release, or rewrite the objects first.");
      add(Severity::kMedium, breaks.removed, "field removed|fields removed",
          "The API server prunes fields the schema does not declare, so the values stored in "
          "them are dropped when the objects are next written.",
          "Keep the fields (deprecated) for a release, or mark the parent "
          "x-kubernetes-preserve-unknown-fields.");
    }
  }

  const Context& old_;
  const Context& new_;
  std::vector<Change>& out_;
  std::string subject_;
  std::string location_;
};

}  // namespace

void diff_crds(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out) {
  std::map<std::string, const Object*> before;
  for (const Object* crd : old_side.context.crds)
    before[crd->name] = crd;
  CrdComparison comparison(old_side, new_side, out);
  std::set<std::string> seen;
  for (const Object* crd : new_side.context.crds) {
    seen.insert(crd->name);
    auto it = before.find(crd->name);
    if (it == before.end()) {
      Change c;
      c.area = "crds";
      c.subject = "CustomResourceDefinition " + crd->name;
      c.change = "added";
      c.consequence = "A new custom kind in the cluster.";
      c.location = location_of(new_side.context, *crd);
      bool skipped = new_side.context.deploy_with.empty()
                         ? in_helm_crds_dir(*crd)
                         : !skipping_paths(new_side.context, *crd).empty();
      if (skipped) {
        // Helm creates crds/ CRDs on install only, never on upgrade.
        c.severity = Severity::kHigh;
        c.consequence =
            "`helm upgrade` does not create CRDs of a chart's crds/ directory: the kind stays "
            "unknown, and the release's objects of that kind fail to apply.";
        c.fix = fmt::format("Apply it first: `kubectl apply --server-side -f` of {}.",
                            crd->helm_source);
      }
      out.push_back(std::move(c));
      continue;
    }
    comparison.compare(read_crd(*it->second), read_crd(*crd));
  }
  for (const auto& [name, crd] : before)
    if (!seen.contains(name)) comparison.removed(read_crd(*crd));
}

}  // namespace footprint
