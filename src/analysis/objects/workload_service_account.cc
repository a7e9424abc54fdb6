// workload-service-account-missing: a workload that runs as a ServiceAccount nobody creates.
// The ServiceAccount admission plugin rejects every pod whose account does not exist, so the
// workload's controller retries and no pod ever starts.
#include <fmt/format.h>

#include "analysis/context.h"
#include "model/webhook_client.h"

namespace footprint {

namespace {

void run_service_account_missing(const Context& ctx, Findings& out) {
  const Bundle& bundle = ctx.bundle;
  for (const PodTemplate& t : ctx.pods) {
    if (t.owner->replaced()) continue;
    yaml::Node at = service_account_field(t.spec);
    if (!at) continue;
    std::string name(at.str());
    const std::string& ns = t.owner->namespace_;
    // The ServiceAccount controller creates "default" in every namespace; kube-system also holds
    // the accounts the control plane creates for its own controllers.
    if (name == "default" || ns == "kube-system") continue;
    if (bundle.find("", "ServiceAccount", ns, name)) continue;
    bool new_namespace = bundle.creates_namespace(ns);
    Finding& f = out.add(
        *t.owner, Severity::kHigh,
        fmt::format("{} runs its pods as ServiceAccount {}/{}, which {}: the API server rejects "
                    "each pod (\"serviceaccount \\\"{}\\\" not found\"), so none ever starts{}.",
                    t.owner->display(), ns, name,
                    new_namespace ? "no object of the bundle creates, in a namespace the bundle "
                                    "creates itself"
                                  : "no object of the bundle creates",
                    name,
                    new_namespace ? "" : ", unless the account is created before the install"),
        fmt::format("Add ServiceAccount {}/{} to the bundle (most charts: serviceAccount.create="
                    "true), or set serviceAccountName to an account that exists.",
                    ns, name),
        at);
    f.summary = fmt::format("{} runs as ServiceAccount {}/{}, which nothing creates",
                            t.owner->display(), ns, name);
  }
}

}  // namespace

extern const Check kWorkloadServiceAccountMissing{
    .id = "workload-service-account-missing",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kObjects,
    .description =
        "A workload names a ServiceAccount that neither the bundle nor Kubernetes creates.",
    .run = run_service_account_missing,
    .rationale =
        "The ServiceAccount admission plugin rejects a pod whose serviceAccountName does not exist "
        "in its namespace, so a Deployment, StatefulSet, DaemonSet or Job never gets a pod. "
        "Kubernetes creates only \"default\" in each namespace (and its controllers' accounts in "
        "kube-system). High: the install does not work unless someone creates the account first.",
    .fix = "Create the ServiceAccount in the bundle, or name one that exists.",
    .breaks_on_install = true,
};

}  // namespace footprint
