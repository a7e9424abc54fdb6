#include "analysis/models/ownership.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/models/crd_models.h"

namespace footprint {

namespace {

// The last two labels of a group: "knative.dev" for "serving.knative.dev", and "nvidia.com"
// for itself. Empty for a group without a dot.
std::string_view domain_of(std::string_view group) {
  size_t last = group.rfind('.');
  if (last == std::string_view::npos || last == 0) return {};
  size_t second = group.rfind('.', last - 1);
  return second == std::string_view::npos ? group : group.substr(second + 1);
}

// Domains under which many unrelated projects register groups.
bool shared_domain(std::string_view domain) {
  return domain == "k8s.io" || domain == "x-k8s.io";
}

// "pipelines.modal.example.com" -> "modal.example.com".
std::string_view group_of_crd_name(std::string_view name) {
  size_t dot = name.find('.');
  return dot == std::string_view::npos ? std::string_view{} : name.substr(dot + 1);
}

}  // namespace

OwnApis own_api_groups(const Bundle& bundle, const RbacPolicy& policy, const Admission& admission,
                       const HiddenFootprint& hidden) {
  OwnApis own;
  auto add = [&](std::string_view group, std::string why) {
    if (group.empty() || group == "*" || bundle.resources.is_builtin_group(group)) return;
    own.groups.emplace(std::string(group), std::move(why));
  };
  bool ships_crds = false;
  for (const ResourceInfo& r : bundle.resources.all()) {
    if (r.builtin) continue;
    ships_crds = true;
    add(r.group, "the bundle's CRDs define it");
  }
  for (const CrdInstallCommand& c : hidden.commands) {
    for (const std::string& name : c.crd_names) {
      add(group_of_crd_name(name),
          fmt::format("{} installs its CRDs at run time", c.workload->display()));
    }
  }
  for (const CrdWriter& w : hidden.writers) {
    for (const std::string& name : w.crd_names)
      add(group_of_crd_name(name), fmt::format("{} may update its CRDs", w.subject.display()));
  }
  if (!ships_crds) {
    for (const RbacRole& role : policy.roles()) {
      if (role.builtin()) continue;
      for (const PolicyRule& rule : role.rules) {
        bool controller =
            std::any_of(rule.resources.begin(), rule.resources.end(), [](const std::string& r) {
              return r.ends_with("/status") || r.ends_with("/finalizers");
            });
        if (!controller) continue;
        for (const std::string& g : rule.api_groups) {
          add(g, fmt::format("{} writes the status or finalizers of its resources, as the "
                             "controller of a resource does",
                             role.display()));
        }
      }
    }
  }
  std::vector<std::pair<std::string, std::string>> by_domain;
  for (const auto& [group, why] : own.groups) {
    std::string_view domain = domain_of(group);
    if (!domain.empty() && !shared_domain(domain)) by_domain.emplace_back(domain, group);
  }
  auto same_domain = [&](std::string_view group) -> const std::string* {
    std::string_view domain = domain_of(group);
    for (const auto& [d, owner] : by_domain) {
      if (d == domain) return &owner;
    }
    return nullptr;
  };
  auto consider = [&](std::string_view group) {
    if (own.owns(group)) return;
    if (const std::string* owner = same_domain(group)) {
      add(group, fmt::format("it shares the domain {} with {}", domain_of(group), *owner));
      if (own.owns(group)) own.by_domain_only.emplace(group);
    }
  };
  for (const RbacRole& role : policy.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      for (const std::string& g : rule.api_groups)
        consider(g);
    }
  }
  for (const AdmissionWebhook& w : admission.webhooks) {
    for (const AdmissionRule& rule : w.rules) {
      for (const std::string& g : rule.api_groups)
        consider(g);
    }
  }
  for (const Object& obj : bundle.objects)
    consider(obj.group);
  return own;
}

}  // namespace footprint
