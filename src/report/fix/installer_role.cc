#include "report/fix/installer_role.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "report/section.h"
#include "util/display_text.h"
#include "util/strings.h"

namespace footprint {

namespace {

constexpr size_t kCommentWidth = 98;

// A JSON string is a YAML double-quoted scalar: "*" and "" stay what they are.
std::string quoted(const std::string& s) {
  return dump_json(Json(s));
}

// `text` as YAML comment lines ("# ", continuation lines indented by two more): names from the
// input may hold a line break, which would end the comment and start YAML of their own.
std::string comment(std::string_view text, size_t indent = 0) {
  std::string flat;
  for (char c : text) {
    if (c == '\n') {
      flat += "\\n";
    } else if (c == '\r') {
      flat += "\\r";
    } else {
      flat += c;
    }
  }
  std::string wrapped = wrap_text(display_text(flat), 0, kCommentWidth - indent);
  std::string out;
  size_t start = 0;
  for (size_t line = 0; start < wrapped.size(); ++line) {
    size_t end = std::min(wrapped.find('\n', start), wrapped.size());
    out += "# " + std::string(indent + (line > 0 ? 2 : 0), ' ') +
           wrapped.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + quoted(items[i]);
  return out + "]";
}

std::string rules_yaml(const std::vector<GrantRule>& rules) {
  std::string out = "rules:\n";
  for (const GrantRule& g : rules) {
    const PolicyRule& r = g.rule;
    out += comment("for " + some_of(g.needed_by, 4));
    if (!r.non_resource_urls.empty() && r.resources.empty()) {
      out += fmt::format("- nonResourceURLs: {}\n  verbs: {}\n", list(r.non_resource_urls),
                         list(r.verbs));
      continue;
    }
    out += fmt::format("- apiGroups: {}\n  resources: {}\n", list(r.api_groups), list(r.resources));
    if (!r.resource_names.empty())
      out += fmt::format("  resourceNames: {}\n", list(r.resource_names));
    if (!r.non_resource_urls.empty())
      out += fmt::format("  nonResourceURLs: {}\n", list(r.non_resource_urls));
    out += fmt::format("  verbs: {}\n", list(r.verbs));
  }
  return out;
}

std::string subject_yaml(const Identity& who) {
  constexpr std::string_view kPrefix = "system:serviceaccount:";
  if (who.is_service_account()) {
    std::string_view rest = std::string_view(who.user).substr(kPrefix.size());
    size_t colon = rest.find(':');
    return fmt::format("subjects:\n- kind: ServiceAccount\n  name: {}\n  namespace: {}\n",
                       quoted(std::string(rest.substr(colon + 1))),
                       quoted(std::string(rest.substr(0, colon))));
  }
  return fmt::format("subjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: {}\n",
                     quoted(who.user));
}

// The order to apply the grant in, and what it leaves to a cluster admin.
std::string header(const InstallerGrant& grant, const Identity& who,
                   const InstallerRoleOptions& options) {
  std::string out = comment(fmt::format(
      "The least grant with which {} installs this bundle in {} (footprint can-install "
      "--print-role). A cluster admin applies it before the install; one `kubectl apply -f` of "
      "this file does it, as its objects come in this order:",
      who.user, options.release_namespace));
  if (!grant.created_namespaces.empty()) {
    std::string metadata =
        options.release.empty()
            ? "without Helm's ownership metadata, since the release is not known: add the label "
              "app.kubernetes.io/managed-by: Helm and the annotations meta.helm.sh/release-name "
              "and meta.helm.sh/release-namespace (or give --release), or Helm refuses to adopt "
              "them"
            : fmt::format(
                  "with Helm's ownership metadata for release {} in {}, so that the "
                  "install adopts them (get and patch by name)",
                  options.release, options.release_namespace);
    out += comment(fmt::format("1. the Namespaces the bundle creates ({}), {}; {} gets no right "
                               "to create namespaces;",
                               joined(grant.created_namespaces), metadata, who.user),
                   2);
  }
  out += comment(fmt::format("{}the roles below, each bound to {}; a Role in a namespace once it "
                             "exists.",
                             grant.created_namespaces.empty() ? "" : "2. ", who.user),
                 2);
  for (const std::string& note : grant.notes)
    out += comment(note);
  if (!options.rated) return out;
  out += "#\n" + comment(fmt::format(
                     "What this grant lets {} do, as footprint's own RBAC checks rate these "
                     "objects:",
                     who.user));
  for (const Finding& f : *options.rated) {
    std::string text = f.summary.empty() ? f.message.substr(0, f.message.find(". ")) : f.summary;
    out += comment(fmt::format("{} {}: {}", upper(severity_name(f.severity)), f.check, text), 2);
  }
  if (options.rated->empty()) out += comment("nothing they report.", 2);
  out += comment(
      "Each rule says what needs it. A role of the bundle puts its own rights in this grant: the "
      "API server refuses a role whose rights its creator does not hold, unless the creator may "
      "escalate, which would let it grant itself anything.");
  return out;
}

}  // namespace

std::string render_installer_role(const InstallerGrant& grant, const Identity& who,
                                  const InstallerRoleOptions& options) {
  std::string out = header(grant, who, options);
  std::string n = quoted(options.name);
  for (const std::string& ns : grant.created_namespaces) {
    out += fmt::format("---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: {}\n", quoted(ns));
    if (options.release.empty()) continue;
    out += fmt::format(
        "  labels:\n    app.kubernetes.io/managed-by: Helm\n  annotations:\n"
        "    meta.helm.sh/release-name: {}\n    meta.helm.sh/release-namespace: {}\n",
        quoted(options.release), quoted(options.release_namespace));
  }
  if (!grant.cluster_rules.empty()) {
    out += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: "
        "{}\n{}",
        n, rules_yaml(grant.cluster_rules));
    out += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  "
        "name: {}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: "
        "{}\n{}",
        n, n, subject_yaml(who));
  }
  for (const auto& [ns, rules] : grant.namespace_rules) {
    std::string q = quoted(ns);
    out += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: {}\n  "
        "namespace: {}\n{}",
        n, q, rules_yaml(rules));
    out += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: "
        "{}\n  namespace: {}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  "
        "name: {}\n{}",
        n, q, n, subject_yaml(who));
  }
  return out;
}

}  // namespace footprint
