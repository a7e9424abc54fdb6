#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string_view>

#include "analysis/models/rbac_models.h"
#include "cli/cluster_option.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "report/section.h"

namespace footprint {

namespace {

bool is_input(const std::string& arg) {
  return arg == "-" || std::filesystem::exists(arg);
}

std::string rule_location(const Bundle& bundle, const RbacRole& role, const PolicyRule& rule) {
  if (role.in_cluster) return "in the cluster";
  if (!role.object) return "built into Kubernetes";
  return fmt::format("{}:{}", bundle.file_of(*role.object), rule.node.position().line);
}

// Everything `who` may do, as a table or, with --format json, as {"as", "permissions": [...]}
// with the same columns as lists.
int list_permissions(const RbacPolicy& policy, const Identity& who, const std::string& as,
                     bool json, const ReportOptions& options) {
  Table table;
  table.header = {"SCOPE", "VERBS", "RESOURCES", "NAMES", "VIA"};
  Json grants = Json::array();
  for (const PermissionGrant& g : permissions_of(policy, who, true)) {
    std::vector<std::string> what;
    for (const std::string& r : g.resources) {
      for (const std::string& group : g.api_groups) {
        what.push_back(group.empty() ? r : fmt::format("{}.{}", r, group));
      }
    }
    what.insert(what.end(), g.non_resource_urls.begin(), g.non_resource_urls.end());
    grants.push_back({{"scope", g.namespace_.empty() ? "cluster-wide" : g.namespace_},
                      {"verbs", g.verbs},
                      {"resources", what},
                      {"names", g.resource_names},
                      {"via", g.via}});
    table.rows.push_back({g.namespace_.empty() ? "cluster-wide" : g.namespace_,
                          fmt::format("{}", fmt::join(g.verbs, ", ")),
                          fmt::format("{}", fmt::join(what, ", ")),
                          fmt::format("{}", fmt::join(g.resource_names, ", ")),
                          fmt::format("{}", fmt::join(g.via, ", "))});
  }
  std::string out = json ? dump_json(Json{{"as", as}, {"permissions", grants}}, 2) + "\n"
                         : render_text_table(table, 0, options.table_width);
  return write_output(out, "", json ? Content::kData : Content::kText) ? kExitOk : kExitUsage;
}

// Warns about a request no API server would make: an unknown verb, or a group that serves no such
// resource (secrets.apps, where secrets is core), naming the group that does.
void warn_unusual_request(const Request& request, const ResourceTable& known) {
  if (!is_api_verb(request.verb))
    print_stderr("footprint: warning: " + unknown_verb_warning(request.verb) + "\n");
  if (!request.is_resource_request() || request.api_group.empty() ||
      known.find_resource(request.api_group, request.resource)) {
    return;
  }
  std::vector<std::string> elsewhere;
  for (const ResourceInfo& info : known.all()) {
    if (info.resource == request.resource) {
      elsewhere.push_back(info.group.empty() ? info.resource
                                             : fmt::format("{}.{}", info.resource, info.group));
    }
  }
  std::string suggestion =
      elsewhere.empty() ? "" : fmt::format("; did you mean {}?", fmt::join(elsewhere, " or "));
  print_stderr(fmt::format(
      "footprint: warning: the API group \"{}\" serves no resource \"{}\" that footprint knows "
      "(Kubernetes 1.34 and the input's CRDs), so only a rule naming it or \"*\" allows it{}\n",
      request.api_group, request.resource, suggestion));
}

}  // namespace

int run_can_i(int argc, char** argv) {
  CLI::App app{
      "Answer whether a subject may make a request, from the bundle's RBAC and the "
      "built-in roles, and name the rule and binding that decide it. Exit 0 for yes, "
      "1 for no.",
      "footprint can-i"};
  BundleArgs bundle_args;
  std::vector<std::string> args;
  app.add_option("args", args,
                 "VERB RESOURCE[/SUBRESOURCE] [NAME] INPUT... (with --list: INPUT...)")
      ->required();
  std::string as;
  app.add_option("--as", as, "system:serviceaccount:NAMESPACE:NAME, or a user name")->required();
  std::vector<std::string> groups;
  add_repeatable(app, "--as-group", groups, "An extra group of the subject");
  std::string ns = "default";
  add_namespace_option(app, "-n,--namespace", ns,
                       "Namespace of the request, and release namespace");
  bool all_namespaces = false;
  app.add_flag("-A,--all-namespaces", all_namespaces, "Ask about all namespaces at once");
  std::string field_selector;
  app.add_option("--field-selector", field_selector,
                 "metadata.name=NAME: a list or watch that names its object");
  bool list = false;
  app.add_flag("--list", list, "Print everything the subject may do");
  add_chart_options(app, bundle_args);
  std::string format_name = "text";
  app.add_option("--format", format_name, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  std::string cluster_path;
  add_cluster_option(app, cluster_path);
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc, argv)) return *code;
  ReportOptions options = text_options(color, "");
  auto who = Identity::parse(as, groups);
  if (!who) {
    print_error(who.error());
    return kExitUsage;
  }
  size_t first_input = list ? 0 : 2;
  if (args.size() < first_input + 1) {
    print_error("expected VERB RESOURCE [NAME] and at least one INPUT");
    return kExitUsage;
  }
  std::string name;
  if (!list && !is_input(args[2])) {
    name = args[2];
    first_input = 3;
  }
  if (!field_selector.empty()) {
    constexpr std::string_view kPrefix = "metadata.name=";
    if (!field_selector.starts_with(kPrefix)) {
      print_error(
          "--field-selector supports only metadata.name=NAME, the selector that RBAC "
          "resourceNames can match");
      return kExitUsage;
    }
    name = field_selector.substr(kPrefix.size());
  }
  bundle_args.inputs.assign(args.begin() + static_cast<long>(first_input), args.end());
  bundle_args.namespace_ = ns;
  if (bundle_args.inputs.empty()) {
    print_error("no INPUT given");
    return kExitUsage;
  }
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  std::optional<Cluster> cluster;
  if (!load_cluster_option(cluster_path, bundle_args.jobs, cluster)) return kExitUsage;
  RbacPolicy policy = RbacPolicy::build(*bundle, cluster ? &cluster->objects : nullptr);
  if (list) return list_permissions(policy, *who, as, format_name == "json", options);

  ResourceTable known = with_cluster_resources(bundle->resources, cluster ? &*cluster : nullptr);
  auto request = make_request(args[0], args[1], name, all_namespaces ? "" : ns, known);
  if (!request) {
    print_error(request.error());
    return kExitUsage;
  }
  warn_unusual_request(*request, known);
  Decision d = policy.authorize(*who, *request);
  std::string out;
  if (format_name == "json") {
    Json j = {{"allowed", d.allowed}, {"request", request->describe()}, {"as", as}};
    if (d.allowed) {
      j["role"] = d.role->display();
      j["binding"] = d.binding->display();
      j["rule"] = rule_location(*bundle, *d.role, *d.rule);
    } else {
      j["reasons"] = d.reasons;
    }
    out = dump_json(j, 2) + "\n";
  } else if (d.allowed) {
    // One line each, as kubectl auth can-i answers, so scripts can grep the answer.
    out = paint(options.color, kGood, "yes") + "\n" +
          fmt::format("{} may {}: {} allows it ({}), through {}.\n", as, request->describe(),
                      d.role->display(), rule_location(*bundle, *d.role, *d.rule),
                      d.binding->display());
  } else {
    out = paint(options.color, kBad, "no") + "\n" +
          fmt::format("{} may not {}:\n", as, request->describe());
    for (const std::string& reason : d.reasons)
      out += "  - " + reason + "\n";
  }
  if (!write_output(out, "", content_of(format_name))) return kExitUsage;
  return d.allowed ? kExitOk : kExitFindings;
}

int run_who_can(int argc, char** argv) {
  CLI::App app{"List every subject that may make a request, and the binding that allows it.",
               "footprint who-can"};
  BundleArgs bundle_args;
  std::vector<std::string> args;
  app.add_option("args", args, "VERB RESOURCE[/SUBRESOURCE] [NAME] INPUT...")->required();
  add_chart_options(app, bundle_args);
  std::string ns = "default";
  add_namespace_option(app, "-n,--namespace", ns,
                       "Namespace of the request, and release namespace");
  bool all_namespaces = false;
  app.add_flag("-A,--all-namespaces", all_namespaces, "Ask about all namespaces at once");
  bool builtin = false;
  std::string format_name = "text";
  app.add_option("--format", format_name, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  app.add_flag("--include-builtin", builtin,
               "Also list subjects of Kubernetes' own bindings (system:masters...)");
  std::string cluster_path;
  add_cluster_option(app, cluster_path);
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc, argv)) return *code;
  ReportOptions options = text_options(color, "");
  if (args.size() < 3) {
    print_error("expected VERB RESOURCE [NAME] INPUT...");
    return kExitUsage;
  }
  size_t first_input = 2;
  std::string name;
  if (!is_input(args[2])) {
    name = args[2];
    first_input = 3;
  }
  bundle_args.inputs.assign(args.begin() + static_cast<long>(first_input), args.end());
  bundle_args.namespace_ = ns;
  if (bundle_args.inputs.empty()) {
    print_error("no INPUT given");
    return kExitUsage;
  }
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  std::optional<Cluster> cluster;
  if (!load_cluster_option(cluster_path, bundle_args.jobs, cluster)) return kExitUsage;
  RbacPolicy policy = RbacPolicy::build(*bundle, cluster ? &cluster->objects : nullptr);
  ResourceTable known = with_cluster_resources(bundle->resources, cluster ? &*cluster : nullptr);
  auto request = make_request(args[0], args[1], name, all_namespaces ? "" : ns, known);
  if (!request) {
    print_error(request.error());
    return kExitUsage;
  }
  warn_unusual_request(*request, known);
  Table table;
  table.header = {"SUBJECT", "BINDING", "ROLE", "RULE"};
  Json json = Json::array();
  for (const RbacPolicy::Grant& g : policy.who_can(*request)) {
    // The cluster's own bindings (--cluster) are listed; Kubernetes' bootstrap ones on request.
    if (g.binding->builtin() && !g.binding->in_cluster && !builtin) continue;
    std::string rule = rule_location(*bundle, *g.role, *g.rule);
    table.rows.push_back({g.subject.display(), g.binding->display(), g.role->display(), rule});
    json.push_back({{"subject", g.subject.display()},
                    {"binding", g.binding->display()},
                    {"role", g.role->display()},
                    {"rule", rule}});
  }
  std::string out;
  if (format_name == "json") {
    out = dump_json(Json{{"request", request->describe()}, {"subjects", json}}, 2) + "\n";
  } else {
    out = paint(options.color, kHeading, fmt::format("Who may {}:", request->describe())) + "\n";
    out += table.rows.empty()
               ? (cluster ? "  nobody in the cluster or the bundle\n" : "  nobody in the bundle\n")
               : render_text_table(table, 2, options.table_width);
  }
  return write_output(out, "", content_of(format_name)) ? kExitOk : kExitUsage;
}

}  // namespace footprint
