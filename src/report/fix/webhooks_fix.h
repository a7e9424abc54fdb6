// `footprint fix webhooks`: the bundle's webhook configurations rewritten so that their webhooks
// are no longer called for the cluster's own namespaces (exclude-system), or only for the
// namespaces the operator manages (own) or for labelled namespaces or objects (opt-in). Every
// rule and failurePolicy is kept; a narrowing that would stop a webhook for the operator's own
// namespace is refused, as the admission matcher judges it.
#pragma once

#include <string>
#include <vector>

#include "analysis/context.h"

namespace footprint {

enum class WebhookScope : uint8_t { kExcludeSystem, kOwn, kOptIn };

struct WebhookFixOptions {
  WebhookScope scope = WebhookScope::kExcludeSystem;
  std::string label_key;  // opt-in: the label other teams set to opt in
  std::string label_value;
  bool label_on_objects = false;  // opt-in: an objectSelector instead of a namespaceSelector
  // own: namespaces the operator manages besides those the bundle shows (its release namespace
  // and the namespaces it creates or puts objects in).
  std::vector<std::string> own_namespaces;
};

struct WebhookConfigFix {
  const Object* configuration = nullptr;
  std::vector<std::string> changes;  // per webhook changed, in words
  std::string fixed;  // the whole configuration as JSON, as kubectl would send it, fixed
  std::string patch;  // a strategic merge patch (kustomize `patches:`) of the changed webhooks
};

struct WebhookFixPlan {
  std::vector<WebhookConfigFix> fixes;
  // What the selectors cannot scope (cluster-scoped resources) and webhooks left as they are.
  std::vector<std::string> notes;
  // Narrowing that would break the operator, or that the bundle does not allow to decide: the
  // command writes nothing and exits 2.
  std::vector<std::string> refusals;
  // The operator may rewrite its own configurations at run time, undoing the fix.
  std::vector<std::string> reverted;
};

WebhookFixPlan plan_webhook_fixes(const Context& context, const WebhookFixOptions& options);

// The bundle's files (LoadOptions::keep_texts) concatenated as one stream with each fixed
// configuration's document replaced by its fixed JSON: what a Helm post-renderer returns.
std::string post_render(const Bundle& bundle, const WebhookFixPlan& plan);

}  // namespace footprint
