#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string_view>

#include "analysis/models/rbac_models.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/rbac_options.h"
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

// What can-i and who-can share: VERB RESOURCE[/SUBRESOURCE] [NAME] INPUT..., the namespace of
// the request (the release namespace too), and how they answer.
struct RequestArgs {
  BundleArgs bundle;
  std::vector<std::string> words;
  std::string ns = "default";
  bool all_namespaces = false;
  AnswerArgs answer;
};

void add_request_options(CLI::App& app, RequestArgs& args, const std::string& words_help) {
  app.add_option("args", args.words, words_help)->required();
  add_namespace_option(app, "-n,--namespace", args.ns,
                       "Namespace of the request, and release namespace");
  app.add_flag("-A,--all-namespaces", args.all_namespaces, "Ask about all namespaces at once");
}

// Where the inputs start after VERB RESOURCE (at least three words): the third word is the NAME
// unless it is an input.
size_t first_input(const std::vector<std::string>& words, std::string& name) {
  if (is_input(words[2])) return 2;
  name = words[2];
  return 3;
}

// The bundle, with the cluster's snapshot, the RBAC policy of both and the resources they serve.
struct RbacInputs {
  std::unique_ptr<Bundle> bundle;
  std::unique_ptr<Cluster> cluster;
  RbacPolicy policy;
  ResourceTable known;
};

// Loads the inputs from words[first...]; prints the errors and returns nullopt when there are
// none or they cannot be read.
std::optional<RbacInputs> load_rbac_inputs(RequestArgs& args, size_t first) {
  args.bundle.inputs.assign(args.words.begin() + static_cast<long>(first), args.words.end());
  args.bundle.namespace_ = args.ns;
  if (args.bundle.inputs.empty()) {
    print_error("no INPUT given");
    return std::nullopt;
  }
  std::optional<Bundle> bundle = load_bundle(args.bundle);
  if (!bundle) return std::nullopt;
  auto loaded = std::make_unique<Bundle>(std::move(*bundle));
  std::optional<ContextInputs> context =
      load_context_inputs(args.answer.context, *loaded, args.bundle.jobs);
  if (!context) return std::nullopt;
  const Cluster* cluster = context->cluster.get();
  RbacPolicy policy = RbacPolicy::build(*loaded, cluster ? &cluster->objects : nullptr);
  ResourceTable known = with_cluster_resources(loaded->resources, cluster);
  return RbacInputs{std::move(loaded), std::move(context->cluster), std::move(policy),
                    std::move(known)};
}

// The request the words name, with a warning when no API server would make it; prints the error
// and returns nullopt when it cannot be made.
std::optional<Request> read_request(const RequestArgs& args, const std::string& name,
                                    const ResourceTable& known) {
  auto request =
      make_request(args.words[0], args.words[1], name, args.all_namespaces ? "" : args.ns, known);
  if (!request) {
    print_error(request.error());
    return std::nullopt;
  }
  warn_unusual_request(*request, known);
  return std::move(*request);
}

}  // namespace

int run_can_i(int argc, char** argv) {
  CLI::App app{
      "Answer whether a subject may make a request, from the bundle's RBAC and the "
      "built-in roles, and name the rule and binding that decide it. Exit 0 for yes, "
      "1 for no.",
      "footprint can-i"};
  IdentityArgs identity;
  add_identity_options(app, identity);
  RequestArgs args;
  add_request_options(app, args,
                      "VERB RESOURCE[/SUBRESOURCE] [NAME] INPUT... (with --list: INPUT...)");
  std::string field_selector;
  app.add_option("--field-selector", field_selector,
                 "metadata.name=NAME: a list or watch that names its object");
  bool list = false;
  app.add_flag("--list", list, "Print everything the subject may do");
  add_chart_options(app, args.bundle);
  add_answer_options(app, args.answer);
  if (auto code = parse_args(app, argc, argv)) return *code;
  ReportOptions options = text_options(args.answer.color, "");
  std::optional<Identity> who = parse_identity(identity);
  if (!who) return kExitUsage;
  if (args.words.size() < (list ? 1 : 3)) {
    print_error("expected VERB RESOURCE [NAME] and at least one INPUT");
    return kExitUsage;
  }
  std::string name;
  size_t first = list ? 0 : first_input(args.words, name);
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
  std::optional<RbacInputs> in = load_rbac_inputs(args, first);
  if (!in) return kExitUsage;
  const std::string& as = identity.as;
  bool json = args.answer.format == Format::kJson;
  if (list) return list_permissions(in->policy, *who, as, json, options);

  std::optional<Request> request = read_request(args, name, in->known);
  if (!request) return kExitUsage;
  Decision d = in->policy.authorize(*who, *request);
  const Bundle& bundle = *in->bundle;
  std::string out;
  if (json) {
    Json j = {{"allowed", d.allowed}, {"request", request->describe()}, {"as", as}};
    if (d.allowed) {
      j["role"] = d.role->display();
      j["binding"] = d.binding->display();
      j["rule"] = rule_location(bundle, *d.role, *d.rule);
    } else {
      j["reasons"] = d.reasons;
    }
    out = dump_json(j, 2) + "\n";
  } else if (d.allowed) {
    // One line each, as kubectl auth can-i answers, so scripts can grep the answer.
    out = paint(options.color, kGood, "yes") + "\n" +
          fmt::format("{} may {}: {} allows it ({}), through {}.\n", as, request->describe(),
                      d.role->display(), rule_location(bundle, *d.role, *d.rule),
                      d.binding->display());
  } else {
    out = paint(options.color, kBad, "no") + "\n" +
          fmt::format("{} may not {}:\n", as, request->describe());
    for (const std::string& reason : d.reasons)
      out += "  - " + reason + "\n";
  }
  if (!write_output(out, "", content_of(args.answer.format))) return kExitUsage;
  return d.allowed ? kExitOk : kExitFindings;
}

int run_who_can(int argc, char** argv) {
  CLI::App app{"List every subject that may make a request, and the binding that allows it.",
               "footprint who-can"};
  RequestArgs args;
  add_chart_options(app, args.bundle);
  add_request_options(app, args, "VERB RESOURCE[/SUBRESOURCE] [NAME] INPUT...");
  bool builtin = false;
  app.add_flag("--include-builtin", builtin,
               "Also list subjects of Kubernetes' own bindings (system:masters...)");
  add_answer_options(app, args.answer);
  if (auto code = parse_args(app, argc, argv)) return *code;
  ReportOptions options = text_options(args.answer.color, "");
  if (args.words.size() < 3) {
    print_error("expected VERB RESOURCE [NAME] INPUT...");
    return kExitUsage;
  }
  std::string name;
  std::optional<RbacInputs> in = load_rbac_inputs(args, first_input(args.words, name));
  if (!in) return kExitUsage;
  std::optional<Request> request = read_request(args, name, in->known);
  if (!request) return kExitUsage;
  const Bundle& bundle = *in->bundle;
  Table table;
  table.header = {"SUBJECT", "BINDING", "ROLE", "RULE"};
  Json json = Json::array();
  for (const RbacPolicy::Grant& g : in->policy.who_can(*request)) {
    // The cluster's own bindings (--cluster) are listed; Kubernetes' bootstrap ones on request.
    if (g.binding->builtin() && !g.binding->in_cluster && !builtin) continue;
    std::string rule = rule_location(bundle, *g.role, *g.rule);
    table.rows.push_back({g.subject.display(), g.binding->display(), g.role->display(), rule});
    json.push_back({{"subject", g.subject.display()},
                    {"binding", g.binding->display()},
                    {"role", g.role->display()},
                    {"rule", rule}});
  }
  std::string out;
  if (args.answer.format == Format::kJson) {
    out = dump_json(Json{{"request", request->describe()}, {"subjects", json}}, 2) + "\n";
  } else {
    out = paint(options.color, kHeading, fmt::format("Who may {}:", request->describe())) + "\n";
    out += table.rows.empty() ? (in->cluster ? "  nobody in the cluster or the bundle\n"
                                             : "  nobody in the bundle\n")
                              : render_text_table(table, 2, options.table_width);
  }
  return write_output(out, "", content_of(args.answer.format)) ? kExitOk : kExitUsage;
}

}  // namespace footprint
