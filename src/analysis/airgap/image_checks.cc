// The image checks of the airgap area: what the bundle's image references cost an air-gapped
// or shared cluster. The inventory they read is built in images.cc.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/images.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {
namespace {

// Where a finding about a use points: the scalar that holds it, or the field group.
yaml::Node use_node(const ImageUse& use) {
  if (use.scalar || !use.fields) return use.scalar;
  return use.fields->repository_node;
}

// Each image found with certainty or likely, with its first such use and how many places use it.
template <typename Fn>
void each_image(const ImageInventory& inv, Fn fn) {
  for (const Image& image : inv.images) {
    const ImageUse* first = nullptr;
    size_t places = 0;
    for (size_t u : image.uses) {
      const ImageUse& use = inv.uses[u];
      if (use.confidence == Confidence::kPossible) continue;
      if (!first) first = &use;
      ++places;
    }
    if (first) fn(image, *first, places);
  }
}

std::string elsewhere(size_t places) {
  return places > 1 ? fmt::format(" and {} more {}", places - 1, places == 2 ? "place" : "places")
                    : "";
}

// One finding for the bundle: every image referenced by tag only is the same cause (nobody
// pinned digests) with the same fix, so it is listed once rather than image by image.
void run_image_not_pinned(const Context& ctx, Findings& out) {
  const ImageInventory& inv = ctx.images;
  struct Unpinned {
    const Image* image;
    const ImageUse* use;
    size_t places;
  };
  std::vector<Unpinned> unpinned;
  each_image(inv, [&](const Image& image, const ImageUse& use, size_t places) {
    if (image.ref.pinned() || moves(image.ref)) return;
    if (is_placeholder_tag(image.ref.effective_tag())) return;  // image-tag-unrendered's
    unpinned.push_back({&image, &use, places});
  });
  if (unpinned.empty()) return;
  const Unpinned& first = unpinned.front();
  std::vector<std::string> images;
  std::vector<std::string> where;
  for (const Unpinned& u : unpinned) {
    images.push_back(u.image->written);
    where.push_back(
        fmt::format("{} ({})", u.image->written, ctx.bundle.objects[u.use->object].display()));
  }
  std::string what =
      unpinned.size() == 1
          ? fmt::format("Image {} is referenced by tag only (at {}{}).", first.image->written,
                        first.use->path, elsewhere(first.places))
          : fmt::format("{} images are referenced by tag only: {}.", unpinned.size(),
                        some_of(where, 4));
  const ImageRef& ref = first.image->ref;
  Finding& f = out.add(
      ctx.bundle.objects[first.use->object], Severity::kLow,
      what +
          " A tag can be moved to another build, so the mirror filled today and the nodes may "
          "not get the bytes the chart was tested with.",
      fmt::format("Pin the digest next to {}, as {}:{}@sha256:<digest>; `skopeo inspect --format "
                  "'{{{{.Digest}}}}' docker://{}` prints it{}.",
                  unpinned.size() == 1 ? "the tag" : "each tag", ref.name(), ref.effective_tag(),
                  ref.normalized(),
                  unpinned.size() == 1 ? ""
                                       : ", and `footprint images --pin --format list` prints "
                                         "every image pinned"),
      use_node(*first.use));
  // The repositories, not their tags or the first workload using them: a chart bump that moves
  // tags or reorders workloads keeps the finding; a new repository makes it a new one.
  std::vector<std::string> repositories;
  for (const Unpinned& u : unpinned)
    add_unique(repositories, u.image->ref.name());
  std::sort(repositories.begin(), repositories.end());
  about_shared(f, joined(repositories, " "));
  f.summary = unpinned.size() == 1
                  ? fmt::format("Image {} is not pinned by digest", first.image->written)
                  : fmt::format("{} images are not pinned by digest", unpinned.size());
  f.affects.emplace_back("images", std::move(images));
}

// What a moving tag costs depends on the container's imagePullPolicy. When none is written,
// the API server defaults it to Always for :latest or no tag and to IfNotPresent otherwise
// (pkg/apis/core/v1/defaults.go, SetDefaults_Container).
std::string pull_consequence(const Image& image, const ImageUse& use) {
  std::string policy = use.pull_policy;
  std::string source = "set in the container";
  if (policy.empty() && !use.source.ends_with("ontainer")) {
    return "Nodes that pulled it at different times can run different builds.";
  }
  if (policy.empty()) {
    // The defaulting compares the tag as written: only ":latest" (or none) means Always.
    std::string_view tag = image.ref.effective_tag();
    policy = tag == "latest" ? "Always" : "IfNotPresent";
    source =
        tag == "latest" ? "the default for :latest" : "the default for a tag other than :latest";
  }
  if (policy == "Always") {
    return fmt::format(
        "With imagePullPolicy Always ({}), each pod start pulls again: pods may "
        "start a build nobody tested, and every start needs the registry, which "
        "an air-gapped cluster does not have.",
        source);
  }
  return fmt::format(
      "With imagePullPolicy {} ({}), each node keeps the build it pulled first, "
      "so nodes drift apart and a rescheduled pod may run different code.",
      policy, source);
}

// A value without a tag or digest that only ConfigMaps hold is a repository name the operator
// completes with a version kept elsewhere (linkerd-config's controllerImage beside
// controllerImageVersion): nothing pulls it as written, so it is no moving tag. A container that
// uses it as written pulls :latest, and is still reported.
bool repository_name_only(const Context& ctx, const Image& image) {
  if (!image.ref.tag.empty() || image.ref.pinned()) return false;
  return std::all_of(image.uses.begin(), image.uses.end(), [&](size_t u) {
    const ImageUse& use = ctx.images.uses[u];
    return use.confidence == Confidence::kPossible ||
           ctx.bundle.objects[use.object].kind == "ConfigMap";
  });
}

void run_image_mutable_tag(const Context& ctx, Findings& out) {
  const ImageInventory& inv = ctx.images;
  each_image(inv, [&](const Image& image, const ImageUse& use, size_t places) {
    if (image.ref.pinned() || !moves(image.ref)) return;
    if (repository_name_only(ctx, image) || completed_from(inv, image)) return;
    std::string tag = image.ref.tag.empty() ? "no tag, so :latest is implied"
                                            : fmt::format("the tag :{}", image.ref.tag);
    Finding& f = out.add(
        ctx.bundle.objects[use.object], Severity::kMedium,
        fmt::format("Image {} has {} (at {}{}), which its publisher moves to each new build: "
                    "every pull may run different code. {}",
                    image.written, tag, use.path, elsewhere(places), pull_consequence(image, use)),
        fmt::format("Use a release tag and pin its digest: {}:<version>@sha256:<digest>.",
                    image.ref.name()),
        use_node(use));
    // The repository, not the tag or the first workload using it: a chart bump that moves the
    // tag or reorders the workloads keeps the finding.
    about_shared(f, image.ref.name());
    f.summary = fmt::format("Image {} uses a moving tag", image.written);
  });
}

void run_model_not_pinned(const Context& ctx, Findings& out) {
  const ImageInventory& inv = ctx.images;
  for (const ModelUse& m : inv.models) {
    if (m.pinned()) continue;
    std::string what =
        m.revision.empty()
            ? fmt::format("Model {} is loaded with no revision pin (at {})", m.id, m.path)
            : fmt::format("Model {} is pinned to \"{}\" (at {}), a branch or tag, not a commit",
                          m.id, m.revision, m.revision_path);
    Finding& f =
        out.add(ctx.bundle.objects[m.object], Severity::kMedium,
                what +
                    ". Next month the name may point to different files. Offline "
                    "(HF_HUB_OFFLINE=1) the name resolves only through refs/main in each "
                    "node's cache.",
                fmt::format("Pass --revision <40-hex commit> (and --tokenizer-revision) so every "
                            "node loads the same files, and download that commit into the cache; "
                            "`footprint hf-cache check {}@<commit>` verifies it resolves offline.",
                            m.id),
                m.scalar);
    f.summary = fmt::format("Model {} is not pinned to a commit", m.id);
  }
}

void run_image_very_large(const Context& ctx, Findings& out) {
  if (ctx.image_sizes == nullptr) return;
  const ImageInventory& inv = ctx.images;
  const PullLimits& limits = ctx.image_sizes->limits;
  for (const Image& image : inv.images) {
    auto size = ctx.image_sizes->bytes.find(image.ref.normalized());
    if (size == ctx.image_sizes->bytes.end()) continue;
    auto large = large_image(size->second, limits);
    if (!large || image.uses.empty()) continue;
    const ImageUse& use = inv.uses[image.uses.front()];
    Finding& f = out.add(
        ctx.bundle.objects[use.object], Severity::kMedium,
        fmt::format("Image {} is {}, over the {} limit: at {} a node needs about {} to "
                    "pull it. The kubelet pulls one image at a time by default "
                    "(serializeImagePulls), so every other pod scheduled to that node waits "
                    "behind it and may miss its progress deadline.",
                    image.written, format_bytes(large->bytes), format_limit(limits.large_bytes),
                    format_rate(limits.bytes_per_second), format_duration(large->pull_seconds)),
        "Pre-pull it onto the nodes outside deployment windows (for example with a "
        "DaemonSet that runs the image with a sleep command), or build a smaller image.",
        use_node(use));
    // The repository, not the tag or the first workload using it: a chart bump that moves the
    // tag or reorders the workloads keeps the finding.
    about_shared(f, image.ref.name());
    f.summary = fmt::format("Image {} ({}) holds up other pods on each node while it is pulled",
                            image.written, format_bytes(large->bytes));
  }
}

// Container fields whose image a pod cannot start with: the kubelet refuses an invalid reference
// (InvalidImageName), and the API server refuses a field that is not a string.
void run_image_reference_invalid(const Context& ctx, Findings& out) {
  for (const ImageUse& use : ctx.images.uses) {
    if (use.ref || use.confidence != Confidence::kCertain || !use.disabled_by.empty()) continue;
    bool not_string = use.error.starts_with("a YAML ");
    Finding& f = out.add(
        ctx.bundle.objects[use.object], Severity::kHigh,
        fmt::format("{} at {} is not an image reference ({}): {}.",
                    quoted_if_blank_edges(use.written), use.path, use.error,
                    not_string ? "the object cannot be created"
                               : "the pod never starts, the kubelet reports InvalidImageName"),
        not_string ? "Quote the value, or write the whole reference, e.g. "
                     "registry.example.com/app:1.2.3."
                   : "Write a reference the container runtime accepts: lowercase "
                     "[registry/]path[:tag][@digest], with a tag of at most 128 characters "
                     "([A-Za-z0-9_][A-Za-z0-9_.-]*); render the chart if the value is a "
                     "template placeholder.",
        use_node(use));
    f.summary = fmt::format("{} is not a valid image reference: the pod never starts",
                            quoted_if_blank_edges(use.written));
  }
}

// A tag the chart's release process replaces, left as written: no registry has that tag, so
// the pull fails (ErrImagePull, then ImagePullBackOff) and the pod never starts.
void run_image_tag_unrendered(const Context& ctx, Findings& out) {
  each_image(ctx.images, [&](const Image& image, const ImageUse& use, size_t places) {
    if (!image.ref.digest.empty() || !is_placeholder_tag(image.ref.effective_tag())) return;
    Finding& f = out.add(
        ctx.bundle.objects[use.object], Severity::kHigh,
        fmt::format("Image {} (at {}{}) has the tag :{}, a placeholder the project's release "
                    "replaces: the reference is not rendered, so the pull fails (ErrImagePull, "
                    "then ImagePullBackOff) and the pod never starts.",
                    image.written, use.path, elsewhere(places), image.ref.tag),
        fmt::format("Install from the project's released chart or manifests, or set the image "
                    "tag to a released version ({}:<version>) when rendering.",
                    image.ref.name()),
        use_node(use));
    about_shared(f, image.ref.name());
    f.summary = fmt::format("Image {} is not rendered: the pull fails", image.written);
  });
}

}  // namespace

extern const Check kImageTagUnrendered{
    .id = "image-tag-unrendered",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kAirgap,
    .description =
        "An image's tag is a placeholder the project's release replaces, left as written.",
    .run = run_image_tag_unrendered,
    .rationale =
        "A tag spelled like a variable (linkerdVersionValue, VERSION, IMAGE_TAG) or a placeholder "
        "word was meant to be replaced when the project was released; no registry has it, so the "
        "pull fails and the pod never starts. High. It is not a moving tag: image-mutable-tag and "
        "image-not-pinned leave it alone.",
    .fix = "Render from the released chart, or set the tag to a released version.",
    .breaks_on_install = true,
};

extern const Check kImageReferenceInvalid{
    .id = "image-reference-invalid",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kAirgap,
    .description =
        "A container's image is not a valid reference (or not a string), so the pod cannot start.",
    .run = run_image_reference_invalid,
    .rationale =
        "The kubelet parses each image with the distribution reference grammar and refuses what it "
        "cannot parse (InvalidImageName); the API server refuses an image that is not a string. "
        "High: the pod never starts.",
    .fix = "Write a valid reference: lowercase [registry/]path[:tag][@digest].",
    .breaks_on_install = true,
};

extern const Check kImageNotPinned{
    .id = "image-not-pinned",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kLow,
    .impact = Impact::kHygiene,
    .area = Area::kAirgap,
    .description =
        "An image is referenced by tag without a digest, so the bytes behind it can change.",
    .run = run_image_not_pinned,
    .rationale =
        "A tag can be moved to another build, so the mirror and the nodes may not get the bytes "
        "the chart was tested with. Low. One finding for the bundle, listing every such image.",
    .fix = "Pin the digest next to the tag.",
};

extern const Check kImageMutableTag{
    .id = "image-mutable-tag",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kMedium,
    .impact = Impact::kHygiene,
    .area = Area::kAirgap,
    .description =
        "An image uses latest, main, devel or a similar tag that moves to every new build.",
    .run = run_image_mutable_tag,
    .rationale =
        "latest, main and similar tags move with every build: what runs depends on when each node "
        "pulled, and with imagePullPolicy Always (the default only for :latest or no tag) every "
        "pod start needs the registry. Medium. A value without a tag that only ConfigMaps hold, or "
        "that an env value or argument names beside a container image of the same registry path, "
        "is a repository name completed elsewhere, not a moving tag, and is not reported.",
    .fix = "Use a release tag and pin its digest.",
};

extern const Check kModelNotPinned{
    .id = "model-not-pinned",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kMedium,
    .impact = Impact::kHygiene,
    .area = Area::kAirgap,
    .description =
        "A Hugging Face model is loaded without a commit-hash revision, so its files can change.",
    .run = run_model_not_pinned,
    .rationale =
        "A model loaded by name or branch can change next month, and offline it resolves only "
        "through the cache's refs. Medium.",
    .fix = "Pin a commit revision and check the cache with `footprint hf-cache check`.",
};

extern const Check kImageVeryLarge{
    .id = "image-very-large",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kMedium,
    .impact = Impact::kOtherTeams,
    .area = Area::kAirgap,
    .description =
        "An image is larger than --large-image; pulling it holds up other pods on the node.",
    .run = run_image_very_large,
    .rationale =
        "The kubelet pulls one image at a time by default, so a very large image holds up every "
        "other pod scheduled to the node. Medium; measured only with --sizes.",
    .fix = "Pre-pull it outside deployment windows, or build a smaller image.",
};

namespace {

constexpr std::string_view kFrozenRegistry = "k8s.gcr.io";
constexpr std::string_view kSuccessorRegistry = "registry.k8s.io";

void run_image_registry_frozen(const Context& ctx, Findings& out) {
  each_image(ctx.images, [&](const Image& image, const ImageUse& use, size_t places) {
    if (image.ref.domain != kFrozenRegistry) return;
    std::string successor = fmt::format("{}/{}", kSuccessorRegistry, image.ref.path);
    Finding& f = out.add(
        ctx.bundle.objects[use.object], Severity::kMedium,
        fmt::format("Image {} (at {}{}) comes from {}, which the Kubernetes project froze on 3 "
                    "April 2023: nothing new is published there, security fixes included, its "
                    "pulls are redirected to {} (an egress allow-list or mirror that knows only "
                    "the old name fails), and the old name is being phased out.",
                    image.written, use.path, elsewhere(places), kFrozenRegistry,
                    kSuccessorRegistry),
        fmt::format("Use {} (the same images are published there) and mirror that name.",
                    image.ref.digest.empty()
                        ? fmt::format("{}:{}", successor, image.ref.effective_tag())
                        : fmt::format("{}@{}", successor, image.ref.digest)),
        use_node(use));
    // The repository, not the tag or the first workload using it: a chart bump that moves the
    // tag or reorders the workloads keeps the finding.
    about_shared(f, image.ref.name());
    f.summary =
        fmt::format("Image {} comes from the frozen {} registry", image.written, kFrozenRegistry);
  });
}

}  // namespace

extern const Check kImageRegistryFrozen{
    .id = "image-registry-frozen",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kMedium,
    .impact = Impact::kInstall,
    .area = Area::kAirgap,
    .description =
        "An image comes from k8s.gcr.io, frozen since April 2023 in favour of registry.k8s.io.",
    .run = run_image_registry_frozen,
    .rationale =
        "The Kubernetes project stopped publishing to k8s.gcr.io on 3 April 2023 and redirects it "
        "to registry.k8s.io until the old name is retired: no security fixes arrive there, and a "
        "mirror or egress allow-list that knows only the old name breaks pulls. Medium: the "
        "install works today, but its images age and will stop resolving.",
    .fix = "Reference the same image under registry.k8s.io and mirror that name.",
};

}  // namespace footprint
