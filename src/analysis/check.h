// A check: a stable ID, the severities it reports, what its findings reach, a one-line
// description, and a function over the whole bundle (checks may relate objects to each other).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "analysis/crds.h"
#include "analysis/finding.h"
#include "analysis/images.h"
#include "analysis/ownership.h"
#include "analysis/rbac.h"
#include "model/admission.h"
#include "model/cluster.h"
#include "model/namespaces.h"
#include "model/object.h"
#include "model/rbac.h"

namespace footprint {

struct ImageSizes;
struct WebhookSummary;

// What every check reads: the bundle and the models derived from it, built once.
struct Context {
  // `namespaces` is the set blast radius is measured against; empty means
  // default_namespaces(bundle), or the cluster's with `cluster`. `expectations` come from
  // --expect. `cluster`, a snapshot from --cluster, must outlive the Context.
  explicit Context(const Bundle& bundle, std::vector<ClusterNamespace> namespaces = {},
                   std::vector<Expectation> expectations = {}, const Cluster* cluster = nullptr);
  // Only the bundle and its images: all that the checks of the airgap area read, for the images
  // and airgap commands.
  struct ImagesOnly {};
  Context(const Bundle& bundle, ImagesOnly);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Bundle& bundle;
  // The snapshot of the cluster the install goes into (--cluster), or null: the RBAC policy then
  // includes its roles and bindings, and namespaces are its namespaces.
  const Cluster* cluster = nullptr;
  // The Helm release the bundle is installed as, when a command knows it (a rendered chart's);
  // empty: inferred from the objects' app.kubernetes.io/instance label where needed.
  std::string release;
  RbacPolicy rbac;  // the bundle's, on top of the cluster's or the built-in policy
  Admission admission;
  // With a cluster: its webhooks and policies together with the bundle's, in the order the API
  // server calls them (read_admission(bundle, cluster)); empty without one.
  Admission chain;
  OwnApis own;  // the install's own API groups
  std::vector<ClusterNamespace> namespaces;
  std::vector<Expectation> expectations;
  std::vector<ObjectSize> sizes;  // object_sizes(bundle), for the size checks and the report
  ImageInventory images;          // discover_images(bundle)
  // summarize_webhooks(): what each webhook reaches and where, for checks and sections.
  std::vector<WebhookSummary> webhooks;
  // Registry sizes of the bundle's images, when a command has them; image-very-large needs them.
  const ImageSizes* image_sizes = nullptr;
};

struct Check {
  std::string_view id;  // kebab-case, stable: users suppress and filter by it
  // The range of severities it reports; where in it a finding lands follows from its
  // consequence (docs/checks.md states the rule per check).
  Severity min_severity;
  Severity max_severity;
  Impact impact;
  std::string_view area;
  std::string_view description;
  void (*run)(const Context& context, Findings& out);
  // For docs/checks.md and SARIF help: why the check matters and how its severity is decided,
  // and the usual fix (each finding carries its own, more precise one).
  std::string_view rationale;
  std::string_view fix;
  // Its findings break something from the moment of install (a request rejected, an apply
  // refused, a pod that never starts), rather than a right that may be misused or a failure
  // that waits for a backend to go down. Among findings of one severity these come first.
  bool breaks_on_install = false;
};
// "high", or "low to critical" for a check whose findings range over several severities.
std::string severity_range(const Check& check);

// Every check, in the order of check_list.inc.
std::span<const Check* const> all_checks();
const Check* find_check(std::string_view id);

}  // namespace footprint
