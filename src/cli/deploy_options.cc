#include "cli/deploy_options.h"

#include <algorithm>

#include "cli/common.h"

namespace footprint {

std::vector<DeliveryPath> DeployArgs::paths(const std::vector<std::string>& implied) const {
  std::vector<DeliveryPath> out;
  for (const std::string& name : names.empty() ? implied : names) {
    std::optional<DeliveryPath> p = parse_delivery_path(name);
    if (p && std::find(out.begin(), out.end(), *p) == out.end()) out.push_back(*p);
  }
  return out;
}

void add_deploy_options(CLI::App& app, DeployArgs& args) {
  std::vector<std::string> names;
  for (DeliveryPath p : kAllDeliveryPaths)
    names.emplace_back(path_name(p));
  add_repeatable(app, "--deploy-with", args.names,
                 "How the install is delivered: kubectl, kubectl-server-side, helm3, helm4, "
                 "argocd, argocd-ssa, flux, kapp or olm (repeatable). audit's size findings "
                 "follow these paths (left out, its report compares them all); diff says whether "
                 "a change of a chart's crds/ reaches the cluster on them (left out: Helm)")
      ->check(CLI::IsMember(names));
}

void add_provider_option(CLI::App& app, Provider& provider) {
  std::vector<std::string> names;
  for (Provider p : kAllProviders)
    names.emplace_back(provider_name(p));
  app.add_option_function<std::string>(
         "--provider",
         [&provider](const std::string& name) {
           // IsMember below has already refused any other name.
           if (std::optional<Provider> p = parse_provider(name)) provider = *p;
         },
         "The control plane: generic, gke, gke-private, eks, eks-custom-sg, eks-overlay, aks "
         "or openshift; decides which webhook ports it reaches and where its calls come from")
      ->check(CLI::IsMember(names))
      ->default_str("generic");
}

}  // namespace footprint
