// Image and model discovery: every container image and Hugging Face model a bundle needs, where
// each is referenced, and how sure we are that the string is one.
//
// Pod specs are found by shape anywhere in any object, custom resources included. Container args,
// command and env values, keys named `image` or ending in `Image`, registry/repository/tag field
// groups, ConfigMap data (values that read as image references, and YAML or JSON inside them), and
// the helm.sh/images and artifacthub.io/images annotations are searched too. Secrets are never
// read.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "load/registry.h"
#include "load/yaml.h"
#include "model/image_ref.h"
#include "model/object.h"

namespace footprint {

// Certain and likely references are images to every command: listed, checked, sized and
// relocated. Possible ones only read as references, and count only with --include-possible.
enum class Confidence : uint8_t { kCertain, kLikely, kPossible };
std::string_view confidence_name(Confidence confidence);

// A reference split over fields of one mapping, e.g. {registry, repository, tag} or NVIDIA's
// {repository, image, version}. Relocation rewrites the registry or repository field.
struct ImageFields {
  std::string registry;  // empty when the group has none
  std::string repository;
  std::string image;  // the last path part, in the {repository, image, version} layout
  // The fields' scalars, when they are in the object's file rather than in an embedded document.
  yaml::Node registry_node;
  yaml::Node repository_node;
};

struct ImageUse {
  uint32_t object = 0;  // index into Bundle::objects
  std::string path;     // JSON path in the object; "a > b" descends into an embedded document
  Confidence confidence = Confidence::kCertain;
  std::string source;   // container, initContainer, ephemeralContainer, arg, env, field, fields,
                        // embedded, annotation
  std::string written;  // the reference as written, or composed from fields
  std::optional<ImageRef> ref;  // absent when `written` is not a valid reference
  std::string error;            // why it is not, then
  // The scalar in the object's file that holds the reference: it contains `written` verbatim, or
  // for a field group in an embedded document, the fields' texts.
  yaml::Node scalar;
  std::optional<ImageFields> fields;  // for references composed from a field group
  yaml::Position position;
  // The path of an enclosing `enabled: false`, when the use sits under one.
  std::string disabled_by;
  std::string pull_policy;    // the container's imagePullPolicy as written, for container images
  std::string configmap_key;  // the data key, for a reference named in a ConfigMap's data
};

// One distinct image: uses grouped by normalised reference, in order of first use.
struct Image {
  ImageRef ref;
  std::string written;                            // the first use's text
  std::vector<size_t> uses;                       // indexes into ImageInventory::uses
  Confidence confidence = Confidence::kPossible;  // the best of its uses
  std::string disabled_by;  // set when every use is disabled: the first use's reason
  bool needed() const { return disabled_by.empty(); }
};

struct ModelUse {
  uint32_t object = 0;
  std::string path;
  std::string id;        // "Qwen/Qwen3-0.6B"
  std::string revision;  // from --revision or a URL; empty when none
  std::string revision_path;
  yaml::Node scalar;  // where the id is written, in the object's file
  yaml::Position position;
  bool pinned() const;  // the revision is a full 40-hex commit hash
};

struct ImageInventory {
  std::vector<ImageUse> uses;  // input order, then document order within each object
  std::vector<Image> images;   // valid references only
  std::vector<ModelUse> models;
  size_t invalid = 0;  // uses whose text is not a valid reference
};

ImageInventory discover_images(const Bundle& bundle);

// A tag left as the chart's source writes it, for its release process to replace: a variable's
// name (linkerd's "linkerdVersionValue", "VERSION", "IMAGE_TAG") or a placeholder word. No
// published image has it, so the pull fails; it does not move.
bool is_placeholder_tag(std::string_view tag);
// Tags that are moved to new builds by convention: latest, main and the like, and any tag
// without a digit (alpine, slim), which names no version.
bool is_mutable_tag(std::string_view tag);
// A tag that only names a variant ("linux", "box", "slim"): no digit, and no moving name.
bool is_variant_tag(std::string_view tag);
// Whether the image a reference names moves: a moving tag (is_mutable_tag), except that a variant
// tag is judged by the repository's name, which may carry the version ("python3.12:slim"). A
// placeholder tag does not move.
bool moves(const ImageRef& ref);

// A repository named without a tag outside any container's image field (an env value, an
// argument, a ConfigMap entry) beside a container image of the same registry path: the operator
// completes the name at run time, usually with its own version (linkerd's controllerImage beside
// its cr.l5d.io/linkerd/controller:<version> containers). Returns that container image, whose tag
// is the likely one; null when `image` is not such a name.
const Image* completed_from(const ImageInventory& inv, const Image& image);

// A Hugging Face repository id "org/name".
bool is_model_id(std::string_view text);

// When an image counts as very large, and how fast nodes pull.
struct PullLimits {
  uint64_t large_bytes = uint64_t{2} << 30;  // 2 GiB
  double bytes_per_second = 15e6;            // 15 MB/s: 10.2 GB took about 11 minutes
};

// Image sizes by normalised reference, as a registry reports them; absent ones are unknown.
struct ImageSizes {
  std::map<std::string, uint64_t, std::less<>> bytes;
  PullLimits limits;
  // What the registries said about each image (size, digest, or why it could not be read), by
  // normalised reference. Empty unless --sizes or --pin asked.
  std::map<std::string, RegistryImage, std::less<>> registry;
  bool sized = false;   // --sizes: bytes were asked for
  bool pinned = false;  // --pin: digests were asked for
  std::string platform;
  uint64_t total_bytes = 0;  // distinct blobs over every image read
  const RegistryImage* find(std::string_view reference) const;
};

// What to ask a registry for an image reference.
RegistryTarget registry_target(const ImageRef& ref);
// Records registry results: sizes (when sized), digests, errors, and the deduplicated total.
void add_registry_results(ImageSizes& sizes, std::vector<RegistryImage> images);

struct LargeImage {
  uint64_t bytes = 0;
  double pull_seconds = 0;
};
// The verdict for one image of known size: set when it is over the limit.
std::optional<LargeImage> large_image(uint64_t bytes, const PullLimits& limits);

}  // namespace footprint
