// footprint can-install: whether a subject may install a bundle, from the built-in RBAC policy
// and a cluster snapshot's, as Helm installs it and as the API server's escalation checks judge
// its roles and bindings (analysis/commands/install_rights.h); --print-role writes the least grant.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/commands/install_rights.h"
#include "analysis/context.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/rbac_options.h"
#include "model/units.h"
#include "report/fix/installer_role.h"
#include "report/section.h"

namespace footprint {

namespace {

std::string target_of(const Request& r) {
  std::string what = r.resource;
  if (!r.subresource.empty()) what += "/" + r.subresource;
  if (!r.api_group.empty()) what += "." + r.api_group;
  return what;
}

std::string scope_of(const std::string& ns) {
  return ns.empty() ? "cluster-wide" : "in " + ns;
}

// "escalate on clusterroles.rbac.authorization.k8s.io cluster-wide", "bind on clusterroles...
// named view in team-a".
std::string alternative_of(const EscalationDenial& d) {
  const Request& r = d.alternative;
  std::string named = r.name.empty() ? "" : fmt::format(" named {}", r.name);
  return fmt::format("{} on {}{} {}", r.verb, target_of(r), named, scope_of(r.namespace_));
}

std::string denial_reason(const EscalationDenial& d, const std::string& as) {
  if (d.role_missing) {
    return fmt::format(
        "{} refers to {}, which exists nowhere: the API server refuses it unless {} "
        "may {}.",
        d.object->display(), d.role, as, alternative_of(d));
  }
  std::string what = d.role.empty() ? "grants" : fmt::format("refers to {}, which grants", d.role);
  std::string aggregation =
      d.aggregation ? " Its aggregationRule can gather any right, so it needs all of them." : "";
  return fmt::format("{} {} rights {} does not hold {}: {}.{} {} would let it through.",
                     d.object->display(), what, as, scope_of(d.scope), joined(d.lacking, "; "),
                     aggregation, alternative_of(d));
}

Json to_json(const InstallRights& rights, const std::string& as, const std::string& ns) {
  Json missing = Json::array();
  for (const InstallNeed& n : rights.needs) {
    if (n.allowed) continue;
    Json j = {{"verb", n.request.verb},
              {"resource", target_of(n.request)},
              {"namespace", n.request.namespace_},
              {"needed_by", n.needed_by}};
    if (!n.names.empty()) j["names"] = n.names;
    missing.push_back(std::move(j));
  }
  Json refused = Json::array();
  for (const EscalationDenial& d : rights.denials) {
    Json j = {{"object", d.object->display()},
              {"namespace", d.scope},
              {"lacking", d.lacking},
              {"would_let_through", alternative_of(d)}};
    if (!d.role.empty()) j["role"] = d.role;
    if (d.role_missing) j["role_missing"] = true;
    if (d.aggregation) j["aggregation_rule"] = true;
    refused.push_back(std::move(j));
  }
  return {{"allowed", rights.allowed()},   {"as", as},           {"namespace", ns},
          {"superuser", rights.superuser}, {"missing", missing}, {"refused", refused}};
}

std::string to_text(const InstallRights& rights, const std::string& as, const std::string& ns,
                    const ReportOptions& options) {
  if (rights.allowed()) {
    return paint(options.color, kGood, "yes") + "\n" +
           fmt::format(
               "{} may install this bundle in {}: every object, its roles and bindings, "
               "and Helm's release record.\n",
               as, ns);
  }
  std::string out = paint(options.color, kBad, "no") + "\n";
  size_t missing = static_cast<size_t>(std::count_if(
      rights.needs.begin(), rights.needs.end(), [](const InstallNeed& n) { return !n.allowed; }));
  out += fmt::format("{} may not install this bundle in {}: {} missing, {} refused.\n", as, ns,
                     count_of(missing, "right"),
                     count_of(rights.denials.size(), "role or binding", "roles and bindings"));
  if (missing > 0) {
    out += "\n" + paint(options.color, kHeading, "Missing rights:") + "\n";
    for (const InstallNeed& n : rights.needs) {
      if (n.allowed) continue;
      std::string named = n.names.empty() ? "" : fmt::format(" named {}", joined(n.names));
      out += fmt::format("  - {} {}{} {}, for {}\n", n.request.verb, target_of(n.request), named,
                         scope_of(n.request.namespace_), joined(n.needed_by));
    }
  }
  if (!rights.denials.empty()) {
    out += "\n" +
           paint(options.color, kHeading,
                 "Roles and bindings the API server refuses (RBAC escalation check):") +
           "\n";
    for (const EscalationDenial& d : rights.denials)
      out += "  - " + denial_reason(d, as) + "\n";
  }
  return out;
}

// footprint audits the grant it prints: its own RBAC checks over the printed objects say what
// the grant lets the installer do.
std::optional<std::vector<Finding>> rate_grant(const std::string& yaml,
                                               const std::string& release_namespace) {
  auto loaded = load_texts({{"<printed grant>", yaml}}, LoadOptions{});
  if (!loaded) {
    print_load_errors(loaded.error());
    return std::nullopt;
  }
  Bundle grant = build_bundle(std::move(*loaded), BundleOptions{release_namespace});
  Context context(grant);
  std::vector<Finding> rated;
  for (Finding& f : analyze(context, Config{}, Area::kRbac).findings) {
    if (f.impact == Impact::kPrivilege || f.impact == Impact::kOtherTeams)
      rated.push_back(std::move(f));
  }
  return rated;
}

// The release the namespaces created first are labelled for: --release, else the chart's name
// as footprint renders it; empty for manifests without --release.
std::string release_of(const BundleArgs& args) {
  if (!args.chart.release.empty()) return args.chart.release;
  for (const std::string& input : args.inputs) {
    if (is_chart(input)) return chart_name(input);
  }
  return "";
}

int print_grant(const Context& ctx, const BundleArgs& args, const Identity& who,
                const std::string& role_name) {
  InstallerGrant grant = installer_grant(ctx, args.namespace_);
  InstallerRoleOptions options{role_name, release_of(args), args.namespace_, nullptr};
  std::optional<std::vector<Finding>> rated =
      rate_grant(render_installer_role(grant, who, options), args.namespace_);
  if (!rated) return kExitUsage;
  options.rated = &*rated;
  if (!write_output(render_installer_role(grant, who, options), "", Content::kData))
    return kExitUsage;
  size_t severe =
      static_cast<size_t>(std::count_if(rated->begin(), rated->end(), [](const Finding& f) {
        return f.severity >= Severity::kHigh;
      }));
  if (severe > 0) {
    print_stderr(fmt::format(
        "footprint: note: footprint's RBAC checks rate {} of what this grant allows high or "
        "critical; its comments say what and why it is needed\n",
        count_of(severe, "right")));
  }
  return kExitOk;
}

}  // namespace

int run_can_install(int argc, char** argv) {
  CLI::App app{
      "Answer whether a subject may install the bundle: create every object as Helm does, pass "
      "the API server's escalation checks on its roles and bindings, and keep Helm's release "
      "record. Exit 0 for yes, 1 for no. --print-role writes the least grant that makes the "
      "answer yes.",
      "footprint can-install"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args);
  IdentityArgs identity;
  add_identity_options(app, identity);
  bool print_role = false;
  app.add_flag("--print-role", print_role,
               "Print the ClusterRole and Roles (with bindings to --as) the install needs");
  std::string role_name = InstallerRoleOptions{}.name;
  app.add_option("--role-name", role_name, "Name of the roles --print-role writes")
      ->capture_default_str();
  // --print-role labels the namespaces it has a cluster admin create for the release, which
  // manifests do not name.
  bundle_args.release_without_chart = true;
  app.get_option("--release")
      ->description(
          "The Helm release (default for a chart: its name), which --print-role labels the "
          "namespaces the bundle creates for");
  AnswerArgs answer;
  add_answer_options(app, answer);
  if (auto code = parse_args(app, argc, argv)) return *code;
  ReportOptions options = text_options(answer.color, "");
  std::optional<Identity> who = parse_identity(identity);
  if (!who) return kExitUsage;
  bundle_args.command = "footprint can-install";
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  std::optional<LoadedContext> loaded = load_context(answer.context, *bundle, bundle_args.jobs);
  if (!loaded) return kExitUsage;
  const Context& ctx = *loaded->context;
  if (print_role) return print_grant(ctx, bundle_args, *who, role_name);
  InstallRights rights = install_rights(ctx, *who, bundle_args.namespace_);
  std::string out = answer.format == Format::kJson
                        ? dump_json(to_json(rights, identity.as, bundle_args.namespace_), 2) + "\n"
                        : to_text(rights, identity.as, bundle_args.namespace_, options);
  if (!write_output(out, "", content_of(answer.format))) return kExitUsage;
  return rights.allowed() ? kExitOk : kExitFindings;
}

}  // namespace footprint
