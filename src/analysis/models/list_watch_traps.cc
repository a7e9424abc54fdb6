// find_list_watch_traps (rbac_models.h), which rbac-resourcenames-list-watch reports and
// `footprint fix rbac` and the decision table read: rules that grant list or watch only for
// named objects, which an informer's unnamed list never matches, and what the bundle shows about
// the operator's lists. Before a trap is called one, the authorizer is asked whether another rule
// allows the list.
#include <cctype>
#include <tuple>
#include <utility>

#include "analysis/models/rbac_models.h"
#include "analysis/models/rights.h"
#include "model/workloads.h"
#include "util/strings.h"

namespace footprint {

Identity identity_of(const Subject& subject) {
  switch (subject.kind) {
    case SubjectKind::kServiceAccount:
      return Identity::service_account(subject.namespace_, subject.name);
    case SubjectKind::kUser:
      return Identity::named_user(subject.name);
    case SubjectKind::kGroup:
      break;
  }
  return Identity{"", {subject.name}};
}

namespace {

// The first namespace other than `ns` where `who` may list and watch `resource` without naming
// an object, as the authorizer answers (a ClusterRoleBinding would have covered `ns` too, so only
// RoleBindings' namespaces are asked), and the grant there.
std::pair<std::string, Decision> informer_elsewhere(const RbacPolicy& policy, const Identity& who,
                                                    const std::string& group,
                                                    const std::string& base, const std::string& sub,
                                                    const std::string& ns) {
  std::vector<std::string> asked;
  for (const RbacBinding& b : policy.bindings()) {
    if (b.cluster || b.namespace_ == ns || contains(asked, b.namespace_)) continue;
    asked.push_back(b.namespace_);
    Decision list = policy.authorize(who, resource_request("list", group, base, b.namespace_, sub));
    if (list.allowed &&
        policy.authorize(who, resource_request("watch", group, base, b.namespace_, sub)).allowed)
      return {b.namespace_, list};
  }
  return {"", Decision{}};
}

// Whether `text` holds `name` as a whole word: "--ca-secret=webhook-ca" holds webhook-ca.
bool holds_word(std::string_view text, std::string_view name) {
  auto part_of_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
  };
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    bool starts = at == 0 || !part_of_name(text[at - 1]);
    bool ends = at + name.size() == text.size() || !part_of_name(text[at + name.size()]);
    if (starts && ends) return true;
  }
  return false;
}

// The command-line argument or environment value of a container running as `subject` that names
// one of `objects`: the sign of an operator that reads that one object, typically with the field
// selector metadata.name that a resourceNames rule does allow (cert-manager's webhook reads its
// CA Secret that way, named by --dynamic-serving-ca-secret-name).
std::string object_named_by_containers(std::span<const PodTemplate> pods, const Subject& subject,
                                       const std::vector<std::string>& objects) {
  if (subject.kind != SubjectKind::kServiceAccount) return "";
  for (const PodTemplate& t : pods) {
    if (t.owner->namespace_ != subject.namespace_) continue;
    if (service_account_of(t.spec) != subject.name) continue;
    yaml::Node containers = t.spec.get("containers");
    for (size_t c = 0; c < containers.size(); ++c) {
      std::vector<yaml::Node> values;
      for (const char* list : {"command", "args"}) {
        yaml::Node items = containers.item(c).get(list);
        for (size_t i = 0; i < items.size(); ++i)
          values.push_back(items.item(i));
      }
      yaml::Node env = containers.item(c).get("env");
      for (size_t i = 0; i < env.size(); ++i)
        values.push_back(env.item(i).get("value"));
      for (const yaml::Node& v : values) {
        if (!v.is_scalar()) continue;
        for (const std::string& object : objects) {
          if (holds_word(v.str(), object)) return std::string(v.str());
        }
      }
    }
  }
  return "";
}

}  // namespace

std::vector<ListWatchTrap> find_list_watch_traps(std::span<const PodTemplate> pods,
                                                 const RbacPolicy& policy) {
  std::vector<ListWatchTrap> traps;
  for (const RbacRole& role : policy.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      if (rule.resource_names.empty()) continue;
      if (!verb_matches(rule, "list") && !verb_matches(rule, "watch")) continue;
      std::string verb = verb_matches(rule, "list") ? "list" : "watch";
      for (const auto& [group, resource] : literal_targets(rule)) {
        std::string base = resource.substr(0, resource.find('/'));
        std::string sub =
            resource.find('/') == std::string::npos ? "" : resource.substr(resource.find('/') + 1);
        // A named Lease is a leader-election lock: client-go's LeaseLock (leaselock.go) only
        // gets, creates and updates it by name, never lists, so list and watch there are unused
        // verbs, not an informer that cannot sync.
        if (group == "coordination.k8s.io" && base == "leases") continue;
        std::vector<const RbacBinding*> bindings = bindings_of(policy, role);
        // An aggregated role's rules are judged in the role that includes them.
        if (bindings.empty() && aggregated_into_another(policy, role)) continue;
        if (bindings.empty()) {
          traps.push_back(ListWatchTrap{&role, &rule, nullptr, Subject{}, group, resource,
                                        role.namespace_, Decision{}, "", Decision{},
                                        ListWatchEvidence::kNone, ""});
          continue;
        }
        for (const RbacBinding* b : bindings) {
          for (const Subject& s : b->subjects) {
            std::string ns = b->cluster ? "" : b->namespace_;
            Identity who = identity_of(s);
            Decision covered = policy.authorize(who, resource_request(verb, group, base, ns, sub));
            ListWatchTrap& t =
                traps.emplace_back(ListWatchTrap{&role, &rule, b, s, group, resource, ns, covered,
                                                 "", Decision{}, ListWatchEvidence::kNone, ""});
            if (covered.allowed) continue;
            if (!ns.empty()) {
              std::tie(t.informer_namespace, t.informer_grant) =
                  informer_elsewhere(policy, who, group, base, sub, ns);
            }
            if (!t.informer_namespace.empty()) {
              t.evidence = ListWatchEvidence::kInformer;
              continue;
            }
            t.named_by = object_named_by_containers(pods, s, rule.resource_names);
            if (!t.named_by.empty()) t.evidence = ListWatchEvidence::kNamedByContainers;
          }
        }
      }
    }
  }
  return traps;
}

}  // namespace footprint
