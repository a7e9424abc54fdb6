// Bindings whose references do not hold: a roleRef to a role that does not exist or lives in
// another namespace, and ServiceAccount subjects that nothing creates (Kubernetes' own accounts
// aside).
#include <fmt/format.h>

#include "analysis/context.h"
#include "analysis/rbac/rbac_internal.h"

namespace footprint {

namespace {

const RbacRole* role_in_other_namespace(const RbacPolicy& policy, const RbacBinding& b) {
  for (const RbacRole& r : policy.roles()) {
    if (!r.cluster && !r.builtin() && r.name == b.role_name && r.namespace_ != b.namespace_) {
      return &r;
    }
  }
  return nullptr;
}

void run_binding_missing_role(const Context& ctx, Findings& out) {
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin() || b.role) continue;
    if (b.cluster && b.role_kind == "Role") {
      Finding& f = out.add(
          *b.object, Severity::kHigh,
          fmt::format("{} refers to a Role; a ClusterRoleBinding can refer only to a ClusterRole, "
                      "so the API server rejects it and the install fails.",
                      b.display()),
          "Refer to a ClusterRole, or use a RoleBinding in the Role's namespace.",
          b.object->node.get("roleRef"));
      f.summary = fmt::format("The API server rejects {} (it refers to a Role)", b.display());
      continue;
    }
    if (!b.cluster && b.role_kind == "Role" && role_in_other_namespace(ctx.rbac, b)) continue;
    Finding& f = out.add(
        *b.object, Severity::kMedium,
        fmt::format("{} refers to {} {}, which is neither in the bundle nor built into "
                    "Kubernetes: until someone creates it, {} get nothing from this binding.",
                    b.display(), b.role_kind, b.role_name, subjects_of(b)),
        fmt::format("Add the {} {} to the bundle, or fix roleRef.name.", b.role_kind, b.role_name),
        b.object->node.get("roleRef"));
    f.summary = fmt::format("{} refers to {} {}, which does not exist", b.display(), b.role_kind,
                            b.role_name);
  }
}

}  // namespace

extern const Check kRbacBindingMissingRole{
    .id = "rbac-binding-missing-role",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kRbac,
    .description =
        "A binding refers to a Role or ClusterRole that is not in the bundle and not built in.",
    .run = run_binding_missing_role,
    .rationale =
        "A binding to a role that neither the bundle nor Kubernetes defines grants nothing until "
        "someone creates the role; a ClusterRoleBinding that refers to a Role is rejected. High "
        "when the API server rejects the binding; medium otherwise.",
    .fix = "Add the role to the bundle, or fix roleRef.",
};

namespace {

void run_role_namespace_mismatch(const Context& ctx, Findings& out) {
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin() || b.role || b.cluster || b.role_kind != "Role") continue;
    const RbacRole* other = role_in_other_namespace(ctx.rbac, b);
    if (!other) continue;
    Finding& f = out.add(
        *b.object, Severity::kHigh,
        fmt::format("{} refers to Role {}, which exists only in namespace {}. A RoleBinding looks "
                    "its Role up in its own namespace ({}), so {} get nothing from it.",
                    b.display(), b.role_name, other->namespace_, b.namespace_, subjects_of(b)),
        fmt::format("Put the RoleBinding in namespace {}, or create the Role in {}.",
                    other->namespace_, b.namespace_),
        b.object->node.get("roleRef"));
    f.summary = fmt::format("{} grants nothing: Role {} is in namespace {}", b.display(),
                            b.role_name, other->namespace_);
  }
}

}  // namespace

extern const Check kRbacRoleNamespaceMismatch{
    .id = "rbac-role-namespace-mismatch",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kRbac,
    .description = "A RoleBinding names a Role that exists only in another namespace.",
    .run = run_role_namespace_mismatch,
    .rationale =
        "A RoleBinding looks its Role up in its own namespace; one that names a Role of another "
        "namespace grants nothing. High: the operator does not get the rights it was meant to "
        "have.",
    .fix = "Put the RoleBinding in the Role's namespace, or create the Role where the binding is.",
};

namespace {

// Whether `account` is one of the controller-manager's per-controller ServiceAccounts in
// kube-system: the bootstrap policy (controller_policy.go) binds system:controller:NAME to
// kube-system/NAME, and the controller manager's client builder gets or creates that account
// before it runs the controller (client_builder_dynamic.go, getOrCreateServiceAccount).
bool controller_manager_account(const RbacPolicy& policy, const Subject& account) {
  if (account.namespace_ != "kube-system") return false;
  for (const RbacBinding& b : policy.bindings()) {
    if (!b.builtin() || b.in_cluster || !b.name.starts_with("system:controller:")) continue;
    for (const Subject& s : b.subjects) {
      if (s.kind == SubjectKind::kServiceAccount && s.namespace_ == account.namespace_ &&
          s.name == account.name)
        return true;
    }
  }
  return false;
}

void run_binding_missing_subject(const Context& ctx, Findings& out) {
  const Bundle& bundle = ctx.bundle;
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin()) continue;
    for (const Subject& s : b.subjects) {
      if (s.kind != SubjectKind::kServiceAccount) continue;
      // The ServiceAccount controller creates "default" in every namespace.
      if (s.name == "default") continue;
      if (controller_manager_account(ctx.rbac, s)) continue;
      if (bundle.find("", "ServiceAccount", s.namespace_, s.name)) continue;
      bool new_namespace = bundle.creates_namespace(s.namespace_);
      bool release = s.namespace_ == bundle.default_namespace;
      Severity severity = new_namespace ? Severity::kMedium
                          : release     ? Severity::kInfo
                                        : Severity::kLow;
      std::string context =
          new_namespace
              ? fmt::format(
                    "the bundle creates namespace {} itself, so nothing else can have "
                    "created this account",
                    s.namespace_)
              : fmt::format("it must already exist in namespace {} for the grant to mean anything",
                            s.namespace_);
      Finding& f = out.add(
          *b.object, severity,
          fmt::format("{} grants {} to {}, which no object in the bundle creates; {}.", b.display(),
                      b.role_kind + " " + b.role_name, s.display(), context),
          fmt::format("Add the ServiceAccount {}/{} to the bundle, or fix the subject's name and "
                      "namespace.",
                      s.namespace_, s.name),
          b.object->node.get("subjects"));
      f.summary = fmt::format("{} binds {}, which nothing creates", b.display(), s.display());
    }
  }
}

}  // namespace

extern const Check kRbacBindingMissingSubject{
    .id = "rbac-binding-missing-subject",
    .min_severity = Severity::kInfo,
    .max_severity = Severity::kMedium,
    .impact = Impact::kInstall,
    .area = Area::kRbac,
    .description = "A binding names a ServiceAccount that the bundle does not create.",
    .run = run_binding_missing_subject,
    .rationale =
        "A binding to a ServiceAccount the bundle does not create gives rights to whatever account "
        "of that name exists, or will exist. Medium when the bundle creates the namespace itself "
        "(nothing else can have made the account); low in another namespace; info in the release "
        "namespace. Accounts Kubernetes creates are never reported: default in every namespace, "
        "and the controller manager's per-controller accounts in kube-system "
        "(namespace-controller, generic-garbage-collector, ...).",
    .fix = "Add the ServiceAccount to the bundle, or fix the subject.",
};

}  // namespace footprint
