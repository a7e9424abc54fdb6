#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "analysis/context.h"
#include "analysis/models/rbac_models.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "model/names.h"
#include "model/units.h"
#include "report/fix/crds_fix.h"
#include "report/fix/webhooks_fix.h"
#include "report/report.h"
#include "util/strings.h"

namespace footprint {

namespace {

// -o/--output-dir and --force: where the fixes are written as files.
struct FixOutputArgs {
  std::string dir;
  bool force = false;
};

// `written` names what goes into the directory: one file, or one file per object fixed.
void add_fix_output_options(CLI::App& app, FixOutputArgs& args, std::string_view written,
                            bool one_file) {
  app.add_option("-o,--output-dir", args.dir, fmt::format("Write {} into this directory", written));
  app.add_flag("--force", args.force,
               one_file ? "Replace a file of that name that exists with other content"
                        : "Replace files of those names that exist with other content");
}

// Writes each file into the -o directory (all of them or none), or all to stdout when none is
// given, refusing to write over an input, and over another existing file unless --force.
bool write_fixes(const std::vector<OutputFile>& fixes, const FixOutputArgs& output,
                 const std::vector<std::string>& inputs) {
  const std::string& dir = output.dir;
  if (dir.empty()) {
    std::string out;
    for (const OutputFile& f : fixes)
      out += f.text;
    return write_output(out, "", Content::kData);
  }
  std::vector<OutputFile> files = fixes;
  for (OutputFile& f : files) {
    f.path = (std::filesystem::path(dir) / f.path).string();
    if (!check_output(f.path, inputs)) return false;
  }
  if (!output.force && !check_not_replacing(files)) return false;
  if (!write_files(files)) return false;
  for (const OutputFile& f : files)
    print_stderr("wrote " + f.path + "\n");
  return true;
}

int run_fix_rbac(int argc, char** argv) {
  CLI::App app{
      "Write Roles and RoleBindings that repair rbac-resourcenames-list-watch traps: "
      "an unrestricted get, list and watch where a resourceNames rule breaks an "
      "informer.",
      "footprint fix rbac"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args);
  FixOutputArgs output;
  add_fix_output_options(app, output, "rbac-fix.yaml", /*one_file=*/true);
  if (auto code = parse_args(app, argc, argv)) return *code;
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  RbacPolicy policy = RbacPolicy::build(*bundle);
  std::string yaml = render_rbac_fix(find_list_watch_traps(pod_templates(*bundle), policy));
  if (yaml.empty()) {
    print_stderr("footprint: no rbac-resourcenames-list-watch trap to fix\n");
    return kExitOk;
  }
  if (!write_fixes({OutputFile{"rbac-fix.yaml", yaml}}, output,
                   input_paths(bundle_args, *bundle))) {
    return kExitUsage;
  }
  // As fix crds does: the command that applies what was written, ready to paste.
  if (output.dir.empty()) {
    print_stderr(
        "footprint: apply with: kubectl apply -f FILE (this output saved to FILE, or piped to "
        "-f -)\n");
    return kExitOk;
  }
  std::string path = (std::filesystem::path(output.dir) / "rbac-fix.yaml").string();
  return write_output(fmt::format("kubectl apply -f {}\n", shell_word(path)), "", Content::kText)
             ? kExitOk
             : kExitUsage;
}

// Reads the CA for caBundle from --ca-file or --ca-from-secret; empty when neither is given.
tl::expected<std::string, std::string> read_ca(const std::string& ca_file,
                                               const std::string& secret_file) {
  if (ca_file.empty() && secret_file.empty()) return std::string();
  const std::string& path = ca_file.empty() ? secret_file : ca_file;
  const char* flag = ca_file.empty() ? "--ca-from-secret" : "--ca-file";
  auto text = read_text_file(path, uint64_t{16} << 20);
  if (!text) return tl::unexpected(fmt::format("{} {}: {}", flag, path, text.error()));
  auto pem = ca_file.empty() ? ca_from_secret(*text) : read_ca_pem(*text);
  if (!pem) return tl::unexpected(fmt::format("{} {}: {}", flag, path, pem.error()));
  return *pem;
}

int run_fix_crds(int argc, char** argv) {
  CLI::App app{
      "Rewrite CRDs whose conversion webhook names a missing Service or a wrong port, or has no "
      "CA: whole CRDs as JSON for `kubectl apply --server-side`, or JSON patches.",
      "footprint fix crds"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args);
  std::string service;
  app.add_option("--service", service,
                 "NAMESPACE/NAME of the Service that serves conversion (default: the Service "
                 "footprint suggests)");
  std::string ca_file;
  auto* ca_option = app.add_option("--ca-file", ca_file,
                                   "PEM file with the CA that signed the webhook's "
                                   "certificate, for caBundle");
  std::string secret_file;
  app.add_option("--ca-from-secret", secret_file,
                 "Secret manifest (kubectl get secret NAME -o yaml) whose ca.crt is that CA; no "
                 "other key is read")
      ->excludes(ca_option);
  std::string format = "crds";
  app.add_option("--format", format, "crds (whole CRDs as JSON) or patch (JSON patches)")
      ->check(CLI::IsMember({"crds", "patch"}))
      ->capture_default_str();
  FixOutputArgs output;
  add_fix_output_options(app, output, "one file per CRD", /*one_file=*/false);
  if (auto code = parse_args(app, argc, argv)) return *code;

  CrdFixOptions options;
  if (!service.empty()) {
    options.service = parse_service_ref(service);
    if (!options.service) {
      print_error(fmt::format("--service {}: expected NAMESPACE/NAME", service));
      return kExitUsage;
    }
  }
  auto ca = read_ca(ca_file, secret_file);
  if (!ca) {
    print_error(ca.error());
    return kExitUsage;
  }
  options.ca_pem = std::move(*ca);
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  // A Service the bundle lacks may be the cluster's own; but a typo here would point every
  // conversion at nothing, which breaks reads of the CRDs' objects: say so before anything.
  if (options.service &&
      !bundle->find("", "Service", options.service->namespace_, options.service->name)) {
    print_stderr(fmt::format(
        "footprint: warning: --service {}: the input has no such Service; the fixed CRDs convert "
        "through it, so it must exist in the cluster before they are applied\n",
        service));
  }
  Context context(*bundle);
  CrdFixPlan plan = plan_crd_fixes(context, options);
  for (const std::string& note : plan.unresolved)
    print_stderr("footprint: not fixed: " + note + "\n");
  if (plan.fixes.empty()) {
    if (plan.unresolved.empty()) print_stderr("footprint: no CRD conversion webhook to fix\n");
    return plan.unresolved.empty() ? kExitOk : kExitUsage;
  }
  for (const CrdFix& f : plan.fixes) {
    print_stderr(fmt::format("footprint: {}: {}\n", f.crd->name, fmt::join(f.changes, "; ")));
  }

  bool patches = format == "patch";
  std::string commands;
  if (output.dir.empty()) {
    std::string out;
    for (const CrdFix& f : plan.fixes) {
      // Quoted for the shell: the patch holds values that came from the bundle.
      out += patches ? fmt::format("kubectl patch crd {} --type=json -p {}\n",
                                   shell_word(f.crd->name), shell_word(f.patch))
                     : f.fixed + (f.fixed.ends_with("\n") ? "" : "\n");  // a JSON stream
    }
    if (!write_output(out, "", Content::kData)) return kExitUsage;
    if (!patches) {
      print_stderr(
          "footprint: apply with: kubectl apply --server-side --force-conflicts -f FILE (this "
          "output saved to FILE, or piped to -f -)\n");
    }
  } else {
    std::vector<std::string> files;
    std::vector<OutputFile> outputs;
    for (const CrdFix& f : plan.fixes) {
      std::string name = f.crd->name + (patches ? ".patch.json" : ".json");
      outputs.push_back(OutputFile{name, patches ? f.patch + "\n" : f.fixed});
    }
    std::vector<std::string> inputs = input_paths(bundle_args, *bundle);
    inputs.insert(inputs.end(), {ca_file, secret_file});
    if (!write_fixes(outputs, output, inputs)) return kExitUsage;
    for (const CrdFix& f : plan.fixes) {
      std::string name = f.crd->name + (patches ? ".patch.json" : ".json");
      std::string path = (std::filesystem::path(output.dir) / name).string();
      if (patches) {
        commands += fmt::format("kubectl patch crd {} --type=json --patch-file={}\n",
                                shell_word(f.crd->name), shell_word(path));
      }
      files.push_back("-f " + shell_word(path));
    }
    if (!patches) {
      commands =
          fmt::format("kubectl apply --server-side --force-conflicts {}\n", fmt::join(files, " "));
    }
    if (!write_output(commands, "", Content::kText)) return kExitUsage;
  }
  if (!patches) {
    print_stderr(
        "footprint: --force-conflicts takes over the fields an earlier apply (client-side or "
        "Helm) owns, which is what changing them needs\n");
  }
  if (!plan.unresolved.empty()) {
    // Exit 2 with files written: say what the written fixes leave undone.
    print_stderr(fmt::format(
        "footprint: incomplete (exit 2): the files written fix only part; give what each \"not "
        "fixed\" line above names ({}) and run this again\n",
        count_of(plan.unresolved.size(), "problem")));
  }
  return plan.unresolved.empty() ? kExitOk : kExitUsage;
}

// A label name or value as Kubernetes validates them (apimachinery validation.IsQualifiedName
// and IsValidLabelValue): up to 63 of [A-Za-z0-9._-], starting and ending alphanumeric; a name
// may have a DNS subdomain prefix and a slash.
bool is_label_part(std::string_view text, bool may_be_empty) {
  if (text.empty()) return may_be_empty;
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  return text.size() <= 63 && alnum(text.front()) && alnum(text.back()) &&
         std::all_of(text.begin(), text.end(),
                     [&](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; });
}

bool is_label_key(std::string_view key) {
  size_t slash = key.find('/');
  if (slash == std::string_view::npos) return is_label_part(key, false);
  return is_dns1123_subdomain(key.substr(0, slash)) && is_label_part(key.substr(slash + 1), false);
}

int run_fix_webhooks(int argc, char** argv) {
  CLI::App app{
      "Rewrite the bundle's webhook configurations so that their webhooks skip the cluster's own "
      "namespaces (exclude-system), or see only the operator's namespaces (own) or labelled "
      "namespaces or objects (opt-in); every rule and failurePolicy is kept. Whole "
      "configurations as JSON, kustomize patches, or the whole stream as a Helm post-renderer.",
      "footprint fix webhooks"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args);
  // A post-renderer reads standard input without being told.
  app.get_option("inputs")->required(false);
  std::string scope = "exclude-system";
  app.add_option("--scope", scope,
                 "exclude-system: not kube-system, kube-public, kube-node-lease; own: only the "
                 "operator's namespaces; opt-in: only what carries --label")
      ->check(CLI::IsMember({"exclude-system", "own", "opt-in"}))
      ->capture_default_str();
  std::string label;
  app.add_option("--label", label,
                 "opt-in: the label KEY=VALUE that opts a namespace or object in");
  std::string label_on = "namespaces";
  app.add_option("--label-on", label_on,
                 "opt-in: namespaces (namespaceSelector) or objects (objectSelector) carry it")
      ->check(CLI::IsMember({"namespaces", "objects"}))
      ->capture_default_str();
  std::vector<std::string> own_namespaces;
  add_repeatable(app, "--own-namespace", own_namespaces,
                 "own: a namespace the operator manages that the bundle does not show");
  ContextArgs context_args;
  add_context_options(app, context_args, {.namespaces_for = "for their labels"});
  std::string format = "objects";
  app.add_option("--format", format,
                 "objects (whole configurations as JSON) or patch (kustomize patches)")
      ->check(CLI::IsMember({"objects", "patch"}))
      ->capture_default_str();
  bool post_renderer = false;
  app.add_flag("--post-renderer", post_renderer,
               "Read the rendered manifests on stdin and write them back with the configurations "
               "fixed, as a Helm post-renderer does");
  FixOutputArgs output;
  add_fix_output_options(app, output, "one file per configuration", /*one_file=*/false);
  if (auto code = parse_args(app, argc, argv)) return *code;

  WebhookFixOptions options;
  options.scope = scope == "own"      ? WebhookScope::kOwn
                  : scope == "opt-in" ? WebhookScope::kOptIn
                                      : WebhookScope::kExcludeSystem;
  options.label_on_objects = label_on == "objects";
  if (options.scope == WebhookScope::kOptIn) {
    size_t eq = label.find('=');
    if (eq == std::string::npos || !is_label_key(label.substr(0, eq)) ||
        !is_label_part(std::string_view(label).substr(eq + 1), true)) {
      print_error(label.empty()
                      ? std::string("--scope opt-in needs --label KEY=VALUE")
                      : fmt::format("--label {}: expected KEY=VALUE, a valid label", label));
      return kExitUsage;
    }
    options.label_key = label.substr(0, eq);
    options.label_value = label.substr(eq + 1);
  } else if (!label.empty()) {
    print_error("--label is for --scope opt-in");
    return kExitUsage;
  }
  for (const std::string& ns : own_namespaces) {
    if (!is_dns1123_label(ns)) {
      print_error(fmt::format("--own-namespace {}: not a namespace name (a DNS-1123 label)", ns));
      return kExitUsage;
    }
  }
  if (!own_namespaces.empty() && options.scope != WebhookScope::kOwn) {
    print_error("--own-namespace is for --scope own");
    return kExitUsage;
  }
  options.own_namespaces = own_namespaces;
  if (post_renderer) {
    if (!output.dir.empty() || format != "objects") {
      print_error("--post-renderer writes the whole stream to stdout: no -o or --format");
      return kExitUsage;
    }
    if (bundle_args.inputs.empty()) bundle_args.inputs.emplace_back("-");
    bundle_args.keep_texts = true;
  } else if (bundle_args.inputs.empty()) {
    print_error(
        "no INPUT given: name manifest files, directories, - for standard input, or a "
        "chart");
    return kExitUsage;
  }

  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  std::optional<LoadedContext> loaded = load_context(context_args, *bundle, bundle_args.jobs);
  if (!loaded) return kExitUsage;
  const Context& context = *loaded->context;
  WebhookFixPlan plan = plan_webhook_fixes(context, options);
  for (const std::string& note : plan.notes)
    print_stderr("footprint: note: " + note + "\n");
  if (!plan.refusals.empty()) {
    for (const std::string& reason : plan.refusals)
      print_stderr("footprint: refused: " + reason + "\n");
    print_stderr(
        "footprint: nothing written: narrowing as asked would break the operator or needs more "
        "input\n");
    return kExitUsage;
  }
  for (const WebhookConfigFix& f : plan.fixes) {
    for (const std::string& change : f.changes)
      print_stderr(fmt::format("footprint: {}: {}\n", f.configuration->display(), change));
  }
  for (const std::string& warning : plan.reverted)
    print_stderr("footprint: warning: " + warning + "\n");
  if (post_renderer)
    return write_output(post_render(*bundle, plan), "", Content::kData) ? kExitOk : kExitUsage;
  if (plan.fixes.empty()) {
    print_stderr("footprint: no webhook to narrow\n");
    return kExitOk;
  }
  bool patches = format == "patch";
  std::vector<OutputFile> outputs;
  for (const WebhookConfigFix& f : plan.fixes) {
    // Names the API server accepted are DNS subdomains; refuse others rather than use them as
    // file names.
    if (!is_dns1123_subdomain(f.configuration->name)) {
      print_error(fmt::format("{}: not a name the API server accepts",
                              go_json_string(f.configuration->name)));
      return kExitUsage;
    }
    std::string kind = f.configuration->kind.starts_with("Mutating") ? "mutating" : "validating";
    outputs.push_back(OutputFile{
        fmt::format("{}.{}{}", f.configuration->name, kind, patches ? ".patch.json" : ".json"),
        patches ? f.patch : f.fixed});
  }
  if (output.dir.empty()) {
    std::string out;
    for (const OutputFile& f : outputs)
      // A stream of JSON objects, as kubectl reads an input that starts with '{': a '---'
      // between them would stop its JSON decoder.
      out += f.text + (f.text.ends_with("\n") ? "" : "\n");
    if (!write_output(out, "", Content::kData)) return kExitUsage;
  } else {
    std::vector<std::string> inputs = input_paths(bundle_args, *bundle);
    if (!context_args.namespaces.empty()) inputs.push_back(context_args.namespaces);
    if (!write_fixes(outputs, output, inputs)) return kExitUsage;
    if (patches) {
      std::string stanza = "patches:\n";
      for (const OutputFile& f : outputs)
        stanza += fmt::format("- path: {}\n", f.path);
      if (!write_output(stanza, "", Content::kText)) return kExitUsage;
    } else {
      std::vector<std::string> files;
      for (const OutputFile& f : outputs)
        files.push_back("-f " + shell_word((std::filesystem::path(output.dir) / f.path).string()));
      std::string command =
          fmt::format("kubectl apply --server-side --force-conflicts {}\n", fmt::join(files, " "));
      if (!write_output(command, "", Content::kText)) return kExitUsage;
    }
  }
  if (patches) {
    print_stderr(
        "footprint: kustomize merges these by webhook name (strategic merge patches); list them "
        "under patches: in kustomization.yaml\n");
  }
  return kExitOk;
}

struct FixTarget {
  const char* name;
  const char* summary;
  int (*run)(int argc, char** argv);
};

constexpr FixTarget kTargets[] = {
    {"rbac", "Roles and bindings for informers broken by resourceNames", run_fix_rbac},
    {"crds", "CRD conversion webhooks: the Service, its port and caBundle", run_fix_crds},
    {"webhooks", "Webhook selectors: skip system namespaces, or only own or opt-in",
     run_fix_webhooks},
};

}  // namespace

int run_fix(int argc, char** argv) {
  std::string_view target = argc > 1 ? argv[1] : "";
  if (target == "--version") {
    return write_output(version_line() + "\n", "", Content::kText) ? kExitOk : kExitUsage;
  }
  for (const FixTarget& t : kTargets) {
    if (target == t.name) return t.run(argc - 1, argv + 1);
  }
  if (target == "-h" || target == "--help") {
    std::string usage = "usage: footprint fix TARGET [options] INPUT...\n\ntargets:\n";
    for (const FixTarget& t : kTargets)
      usage += fmt::format("  {:<9} {}\n", t.name, t.summary);
    return write_output(usage, "", Content::kText) ? kExitOk : kExitUsage;
  }
  print_error(
      target.empty()
          ? std::string("fix needs a target: rbac, crds or webhooks")
          : fmt::format("unknown fix target '{}'; expected rbac, crds or webhooks", target));
  return kExitUsage;
}

}  // namespace footprint
