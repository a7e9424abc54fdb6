#include "analysis/models/images.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <unordered_map>

#include "analysis/models/command_line.h"
#include "load/parallel.h"
#include "model/kubectl_json.h"
#include "model/secrets.h"
#include "util/strings.h"

namespace footprint {

namespace {

constexpr int kMaxEmbedDepth = 3;  // YAML in a ConfigMap value in a YAML string in ...
constexpr std::string_view kEmbedSeparator = " > ";
constexpr std::array<std::string_view, 3> kContainerLists = {"containers", "initContainers",
                                                             "ephemeralContainers"};
constexpr std::array<std::string_view, 3> kContainerRoles = {"container", "initContainer",
                                                             "ephemeralContainer"};
constexpr std::array<std::string_view, 2> kImageAnnotations = {"helm.sh/images",
                                                               "artifacthub.io/images"};

// An ASCII test rather than std::isalnum, which calls into the C library for every character
// of every key; the C locale gives the same answers.
bool is_ascii_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool is_identifier_key(std::string_view key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return is_ascii_alnum(c) || c == '_' || c == '-';
  });
}

std::string join_key(const std::string& path, std::string_view key) {
  bool at_start = path.empty() || path.ends_with(kEmbedSeparator);
  if (!is_identifier_key(key)) return fmt::format("{}[\"{}\"]", path, key);
  // Built by hand: this runs for every key of every object.
  std::string out;
  out.reserve(path.size() + 1 + key.size());
  out += path;
  if (!at_start) out += '.';
  out += key;
  return out;
}

std::string join_index(const std::string& path, size_t i) {
  return fmt::format("{}[{}]", path, i);
}

// `image`, `sidecarImage`, `queue-sidecar-image`, `RELATED_IMAGE_X` style keys.
bool is_image_key(std::string_view key) {
  if (key == "image" || key.ends_with("Image")) return true;
  return ends_with_any_case(key, "-image") || ends_with_any_case(key, "_image");
}

// An env var or flag whose name says it holds an image.
bool names_an_image(std::string_view name) {
  return lower(name).find("image") != std::string::npos;
}

// Hosts that serve only container images (and OCI artifacts): a reference on one of them is an
// image whatever flag or variable holds it (--prometheus-config-reloader=quay.io/...:v0.93.0),
// while github.com/org/repo:main or s3.amazonaws.com/bucket:x is not.
bool is_container_registry(std::string_view domain) {
  std::string d = lower(domain.substr(0, domain.find(':')));
  for (std::string_view host :
       {"docker.io", "registry-1.docker.io", "quay.io", "ghcr.io", "gcr.io", "registry.k8s.io",
        "k8s.gcr.io", "nvcr.io", "mcr.microsoft.com", "public.ecr.aws", "cgr.dev",
        "registry.gitlab.com", "docker.elastic.co", "icr.io", "registry.redhat.io",
        "registry.access.redhat.com", "registry.istio.io", "cr.l5d.io"}) {
    if (d == host) return true;
  }
  for (std::string_view suffix : {".gcr.io", ".pkg.dev", ".azurecr.io", ".icr.io"}) {
    if (d.ends_with(suffix)) return true;
  }
  // Amazon ECR: ACCOUNT.dkr.ecr.REGION.amazonaws.com
  return d.find(".dkr.ecr.") != std::string::npos && d.ends_with(".amazonaws.com");
}

bool is_false(const yaml::Node& node) {
  if (!node.is_scalar()) return false;
  std::string v = lower(node.text());
  return v == "false" || v == "no" || v == "off";
}

bool looks_structured(std::string_view text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return false;
  char first = text[start];
  if (first == '{' || first == '[') return true;
  return text.find('\n') != std::string_view::npos && text.find(':') != std::string_view::npos;
}

// Whether a mapping has a key that walk() looks up: one pass over the keys, instead of a lookup
// for each of them in every mapping of every object.
bool has_looked_up_key(const yaml::Node& mapping) {
  static constexpr std::array<std::string_view, 13> kKeys = {
      "enabled", "image",   "command", "args",   "env",        "registry",           "repository",
      "tag",     "version", "digest",  "global", "containers", "defaultImageVersion"};
  for (size_t i = 0; i < mapping.size(); ++i) {
    std::string_view key = mapping.key(i).text();
    if (key.empty()) continue;
    for (std::string_view k : kKeys) {
      if (k.size() == key.size() && k.front() == key.front() && k == key) return true;
    }
  }
  return false;
}

bool is_pod_spec(const yaml::Node& node) {
  yaml::Node containers = node.get("containers");
  if (!containers.is_sequence()) return false;
  for (size_t i = 0; i < containers.size(); ++i) {
    yaml::Node c = containers.item(i);
    if (c.is_mapping() && (c.get("image") || c.get("name"))) return true;
  }
  return false;
}

// "10.0.0.0/8" parses as a reference on registry 10.0.0.0; it is an address range.
bool is_cidr(std::string_view s) {
  size_t slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view address = s.substr(0, slash);
  std::string_view bits = s.substr(slash + 1);
  auto digits_dots = [](std::string_view t, bool dots) {
    return !t.empty() && std::all_of(t.begin(), t.end(), [&](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) || (dots && c == '.');
    });
  };
  return digits_dots(address, true) && std::count(address.begin(), address.end(), '.') == 3 &&
         digits_dots(bits, false);
}

constexpr std::array<std::string_view, 5> kModelFlags = {"model", "model-path", "model-id",
                                                         "model_id", "tokenizer"};
constexpr std::array<std::string_view, 3> kModelEnv = {"MODEL_ID", "HF_MODEL_ID",
                                                       "MODEL_NAME_OR_PATH"};
constexpr std::array<std::string_view, 3> kRevisionFlags = {"revision", "code-revision",
                                                            "tokenizer-revision"};
constexpr std::array<std::string_view, 3> kRevisionEnv = {"REVISION", "HF_REVISION",
                                                          "MODEL_REVISION"};

template <size_t N>
bool one_of(std::string_view s, const std::array<std::string_view, N>& list) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

struct WalkContext {
  uint32_t object = 0;
  yaml::Node outer;  // the file's scalar that holds an embedded document
  int depth = 0;
};

class Discoverer {
 public:
  explicit Discoverer(ImageInventory& out) : out_(out) {}

  void object(const Object& obj) {
    if (may_hold_secret_values(obj)) return;          // never read
    if (obj.group == "apiextensions.k8s.io") return;  // schemas, not images
    WalkContext ctx{obj.index, {}, 0};
    configmap_ = obj.group.empty() && obj.kind == "ConfigMap";
    data_key_.clear();
    name_parts_.clear();
    walk(obj.node, "", ctx, "", "");
  }

 private:
  void walk(const yaml::Node& node, const std::string& path, const WalkContext& ctx,
            std::string_view role, const std::string& disabled_by) {
    if (node.is_sequence()) {
      for (size_t i = 0; i < node.size(); ++i)
        walk(node.item(i), join_index(path, i), ctx, role, disabled_by);
      return;
    }
    if (!node.is_mapping()) return;
    bool looked_up = has_looked_up_key(node);
    std::string disabled = disabled_by;
    if (looked_up && disabled.empty() && is_false(node.get("enabled"))) {
      disabled = join_key(path, "enabled");
    }
    bool image_key_used = false;
    if (looked_up && !role.empty()) {
      yaml::Node image = node.get("image");
      if (image.is_scalar() && !image.str().empty()) {
        add(ctx, image, join_key(path, "image"), Confidence::kCertain, role, image.str(), disabled);
        out_.uses.back().pull_policy = std::string(node.get("imagePullPolicy").str());
        image_key_used = true;
      }
    }
    if (looked_up) {
      scan_command_line(node, path, ctx, disabled);
      // In a field group, `image` is one part of a reference, never a whole one.
      if (fields(node, path, ctx, disabled) || node.get("repository") || node.get("registry") ||
          node.get("version") || node.get("tag") || node.get("digest") ||
          node.get("defaultImageVersion")) {
        image_key_used = true;
      }
      injector_images(node, path, ctx, disabled);
    }
    // A name part of the injector's image (global.proxy.image: proxyv2) is no reference alone.
    if (std::find(name_parts_.begin(), name_parts_.end(), path) != name_parts_.end()) {
      image_key_used = true;
    }
    bool pod_spec = looked_up && is_pod_spec(node);
    for (size_t i = 0; i < node.size(); ++i) {
      yaml::Node k = node.key(i);
      yaml::Node v = node.value(i);
      if (!k.is_scalar()) continue;
      std::string_view key = k.text();
      std::string child = join_key(path, key);
      if (v.is_scalar()) {
        scalar(ctx, key, v, child, image_key_used, disabled);
        continue;
      }
      std::string_view child_role;
      if (pod_spec) {
        auto it = std::find(kContainerLists.begin(), kContainerLists.end(), key);
        if (it != kContainerLists.end()) child_role = kContainerRoles[it - kContainerLists.begin()];
      }
      walk(v, child, ctx, child_role, disabled);
    }
  }

  void scalar(const WalkContext& ctx, std::string_view key, const yaml::Node& v,
              const std::string& path, bool image_key_used, const std::string& disabled) {
    std::string_view text = v.str();
    bool config_data =
        ctx.depth == 0 && configmap_ && (path.starts_with("data.") || path.starts_with("data["));
    if (ctx.depth == 0) data_key_.assign(config_data ? key : std::string_view());
    if (text.empty()) return;
    bool image_key = is_image_key(key);
    if (!data_key_.empty() && !image_key && !image_key_used && !looks_structured(text)) {
      configmap_value(ctx, v, path, text, disabled);
    }
    if (image_key && !(key == "image" && image_key_used)) {
      if (auto ref = parse_image_ref(text)) {
        // OLM's spec.relatedImages lists every image an operator bundle uses, by contract.
        bool related = key == "image" && path.find("relatedImages[") != std::string::npos;
        // A bare word such as "pilot" or "disabled" is a weak sign.
        bool strong =
            text.find('/') != std::string_view::npos || !ref->tag.empty() || ref->pinned();
        Confidence c = related  ? Confidence::kCertain
                       : strong ? Confidence::kLikely
                                : Confidence::kPossible;
        add(ctx, v, path, c, related ? "relatedImages" : "field", text, disabled);
      }
    }
    bool annotation = std::find(kImageAnnotations.begin(), kImageAnnotations.end(), key) !=
                      kImageAnnotations.end();
    bool nested = ctx.depth > 0 && ctx.depth < kMaxEmbedDepth;
    if ((annotation || config_data || nested) && looks_structured(text)) {
      embedded(ctx, v, path, annotation, disabled);
    }
  }

  // Istio's sidecar injector values (the istio-sidecar-injector ConfigMap's `values`): the
  // injector composes the proxy it adds to every injected pod as istio's ProxyImage does
  // (pkg/kube/inject/inject.go): global.proxy.image (default proxyv2) used as it is when it holds
  // a '/', else global.hub + "/" + that name + ":" + global.tag, with "-" + global.variant
  // unless the variant is empty or "default". global.proxy_init.image is composed the same way
  // for the istio-init container.
  void injector_images(const yaml::Node& node, const std::string& path, const WalkContext& ctx,
                       const std::string& disabled) {
    yaml::Node global = node.get("global");
    if (!global.is_mapping() || !global.get("hub").is_scalar() ||
        !global.get("proxy").is_mapping()) {
      return;
    }
    std::string hub(global.get("hub").str());
    while (hub.ends_with('/'))
      hub.pop_back();
    std::string tag(global.get("tag").str());
    std::string variant(global.get("variant").str());
    if (!variant.empty() && variant != "default" && !tag.ends_with("-" + variant)) {
      tag += "-" + variant;
    }
    std::string global_path = join_key(path, "global");
    for (std::string_view part : {"proxy", "proxy_init"}) {
      yaml::Node image = global.get(part).get("image");
      if (!global.get(part).is_mapping()) continue;
      std::string name = image.is_scalar() && !image.str().empty() ? std::string(image.str())
                         : part == "proxy"                         ? "proxyv2"
                                                                   : "";
      if (name.empty()) continue;
      std::string composed = name;
      if (name.find('/') == std::string::npos) {
        if (hub.empty() || tag.empty()) continue;  // nothing a runtime could pull
        composed = fmt::format("{}/{}:{}", hub, name, tag);
      }
      std::string part_path = join_key(global_path, part);
      name_parts_.push_back(part_path);
      add(ctx, image ? image : global.get("hub"), join_key(part_path, "image"), Confidence::kLikely,
          "injector", composed, disabled);
    }
  }

  // YAML or JSON inside a string: parsed and walked, with uses pointing at the outer scalar.
  void embedded(const WalkContext& ctx, const yaml::Node& v, const std::string& path,
                bool annotation, const std::string& disabled) {
    yaml::Limits limits;
    limits.max_depth = 64;
    limits.max_alias_expansion = 10000;
    auto docs = yaml::parse(v.str(), limits);
    if (!docs) return;
    WalkContext inner{ctx.object, ctx.outer ? ctx.outer : v, ctx.depth + 1};
    std::string prefix = path + std::string(kEmbedSeparator);
    for (const yaml::Document& doc : *docs) {
      if (annotation) {
        // helm.sh/images and artifacthub.io/images: a list of {name, image, ...}.
        for (size_t i = 0; i < doc.root.size() && doc.root.is_sequence(); ++i) {
          yaml::Node image = doc.root.item(i).get("image");
          if (image.is_scalar() && !image.str().empty()) {
            add(inner, image, join_key(join_index(prefix, i), "image"), Confidence::kCertain,
                "annotation", image.str(), disabled);
          }
        }
        continue;
      }
      walk(doc.root, prefix, inner, "", disabled);
    }
  }

  // {registry, repository, tag}, {repository, image, version} and {repository, tag} groups.
  bool fields(const yaml::Node& node, const std::string& path, const WalkContext& ctx,
              const std::string& disabled) {
    auto text_of = [&](std::string_view name) {
      yaml::Node v = node.get(name);
      return v.is_scalar() && !v.str().empty() ? v : yaml::Node();
    };
    yaml::Node registry = text_of("registry");
    yaml::Node repository = text_of("repository");
    yaml::Node image = text_of("image");
    yaml::Node tag = text_of("tag");
    for (std::string_view alias : {"version", "defaultImageVersion"}) {  // NVIDIA's, kserve's
      if (!tag) tag = text_of(alias);
    }
    yaml::Node digest = text_of("digest");
    yaml::Node base;
    if (repository) {
      if (!image && !registry && !tag && !digest) return false;
      base = repository;
    } else if (image && (registry || tag || digest)) {
      base = image;  // {image: quay.io/org/app, tag: v1}
      image = {};
    } else {
      return false;
    }
    ImageFields f;
    f.registry = registry.str();
    f.repository = base.str();
    f.image = image.str();
    if (!ctx.outer) {
      f.registry_node = registry;
      f.repository_node = base;
    }
    std::string text;
    if (!f.registry.empty()) text = fmt::format("{}/", f.registry);
    text += f.repository;
    if (!f.image.empty()) text += fmt::format("/{}", f.image);
    std::string_view last = std::string_view(text).substr(text.rfind('/') + 1);
    bool has_suffix = last.find_first_of(":@") != std::string_view::npos;
    if (tag && !has_suffix) {
      text += fmt::format("{}{}", is_digest(tag.str()) ? "@" : ":", tag.str());
    }
    if (digest && text.find('@') == std::string::npos) text += fmt::format("@{}", digest.str());
    auto ref = parse_image_ref(text);
    if (!ref) return false;
    ImageUse use;
    use.object = ctx.object;
    use.path = path;
    use.confidence = Confidence::kLikely;
    use.source = "fields";
    if (use.path.ends_with(kEmbedSeparator)) {  // the root of an embedded document
      use.path.resize(use.path.size() - kEmbedSeparator.size());
    }
    use.written = text;
    use.ref = std::move(*ref);
    use.disabled_by = disabled;
    use.scalar = ctx.outer;
    use.position = (ctx.outer ? ctx.outer : base).position();
    use.fields = std::move(f);
    use.configmap_key = data_key_;
    out_.uses.push_back(std::move(use));
    return true;
  }

  // args, command and env of anything container-shaped: images behind flags and variables, and
  // Hugging Face model ids with their revision pins.
  void scan_command_line(const yaml::Node& node, const std::string& path, const WalkContext& ctx,
                         const std::string& disabled) {
    struct Found {
      ModelRef model;
      std::string path;
      yaml::Node at;
    };
    std::vector<Found> models;
    std::string revision;
    std::string revision_path;
    struct Piece {
      yaml::Node scalar;
      std::string path;
    };
    auto consider = [&](const std::vector<Piece>& pieces, std::string_view context,
                        std::string_view source) {
      std::vector<std::string_view> texts;
      texts.reserve(pieces.size());
      for (const Piece& p : pieces)
        texts.push_back(p.scalar.str());
      std::string_view previous;
      for (const CommandToken& t : tokenize_command_line(texts, context)) {
        const Piece& at = pieces[t.piece];
        std::string flag = lower(t.flag);
        bool env = source == "env";
        if (one_of(flag, kRevisionFlags) || (env && one_of(t.flag, kRevisionEnv))) {
          if (flag != "tokenizer-revision" && flag != "code-revision" && revision.empty()) {
            revision = t.value;
            revision_path = at.path;
          }
        } else if (auto url = model_from_url(t.value)) {
          models.push_back({*url, at.path, at.scalar});
        } else if ((one_of(flag, kModelFlags) || (env && one_of(t.flag, kModelEnv)) ||
                    previous == "serve") &&
                   is_model_id(t.value)) {
          models.push_back({{std::string(t.value), ""}, at.path, at.scalar});
        }
        previous = t.flag.empty() ? t.value : std::string_view();
        image_token(ctx, at.scalar, at.path, t, source, disabled);
      }
    };
    std::vector<Piece> command_line;
    for (std::string_view list : {"command", "args"}) {
      yaml::Node items = node.get(list);
      for (size_t i = 0; i < items.size() && items.is_sequence(); ++i) {
        yaml::Node item = items.item(i);
        if (item.is_scalar()) command_line.push_back({item, join_index(join_key(path, list), i)});
      }
    }
    consider(command_line, "", "arg");
    yaml::Node env = node.get("env");
    for (size_t i = 0; i < env.size() && env.is_sequence(); ++i) {
      yaml::Node name = env.item(i).get("name");
      yaml::Node value = env.item(i).get("value");
      if (name.is_scalar() && value.is_scalar()) {
        consider({{value, join_key(join_index(join_key(path, "env"), i), "value")}}, name.str(),
                 "env");
      }
    }
    for (Found& m : models) {
      ModelUse use;
      use.object = ctx.object;
      use.path = m.path;
      use.id = m.model.id;
      use.revision = m.model.revision.empty() ? revision : m.model.revision;
      use.revision_path = m.model.revision.empty() ? revision_path : m.path;
      use.scalar = ctx.outer ? ctx.outer : m.at;
      use.position = use.scalar.position();
      out_.models.push_back(std::move(use));
    }
  }

  // A value in a ConfigMap's data, or in YAML or JSON inside one, that reads as an image
  // reference whatever its key: operators list the images they start later in such an "image
  // set". A registry and a tag or digest make it likely (listed, checked and relocated); a tag
  // without a registry, possible. Without a tag or digest it is not one: apiVersions
  // (config.example.io/v1) and label keys (kubernetes.io/metadata.name) have the same shape.
  void configmap_value(const WalkContext& ctx, const yaml::Node& v, const std::string& path,
                       std::string_view text, const std::string& disabled) {
    if (text.find('/') == std::string_view::npos || is_cidr(text)) return;
    auto ref = parse_image_ref(text);
    if (!ref || !(!ref->tag.empty() || ref->pinned())) return;
    bool domain = has_registry_domain(text);
    // A container's arg inside an embedded pod spec was found already, as an arg.
    for (auto u = out_.uses.rbegin(); u != out_.uses.rend() && u->object == ctx.object; ++u) {
      if (u->path == path && u->written == text) return;
    }
    add(ctx, v, path, domain ? Confidence::kLikely : Confidence::kPossible, "configmap", text,
        disabled);
  }

  void image_token(const WalkContext& ctx, const yaml::Node& scalar, const std::string& path,
                   const CommandToken& t, std::string_view source, const std::string& disabled) {
    bool named = names_an_image(t.flag);
    auto ref = parse_image_ref(t.value);
    if (!ref || is_cidr(t.value)) return;
    bool tagged = !ref->tag.empty() || ref->pinned();
    if (!has_registry_domain(t.value) && !(named && tagged)) return;
    // Likely when the name says image, a digest pins it, or its host only serves images; any
    // other value that reads as a reference (--config=config.example.com/path:v1,
    // UPSTREAM=github.com/org/repo:main) may be a configuration URL or a git ref, which
    // mirroring, relocating or pinning would break.
    bool image_host = has_registry_domain(t.value) && is_container_registry(ref->domain);
    Confidence c =
        named || ref->pinned() || image_host ? Confidence::kLikely : Confidence::kPossible;
    add(ctx, scalar, path, c, source, t.value, disabled);
  }

  void add(const WalkContext& ctx, const yaml::Node& scalar, const std::string& path, Confidence c,
           std::string_view source, std::string_view written, const std::string& disabled) {
    ImageUse use;
    use.object = ctx.object;
    use.path = path;
    // A pod spec inside a string is a template someone may or may not run.
    use.confidence =
        ctx.outer && c == Confidence::kCertain && source != "annotation" ? Confidence::kLikely : c;
    use.source = ctx.outer && source == "field" ? "embedded" : std::string(source);
    use.written = written;
    auto ref = parse_image_ref(written);
    std::string_view type = ctx.outer ? "string" : kubectl_scalar_type(scalar);
    if (type != "string") {
      // A container's image is a Go string: the API server refuses `image: 12345` outright.
      use.error = fmt::format("a YAML {}, not a string: the API server refuses the object", type);
    } else if (ref) {
      use.ref = std::move(*ref);
    } else if (written.find("{{") != std::string_view::npos) {
      // The grammar's complaint ("must be lowercase") would hide the cause, as relocate says.
      use.error = "an unrendered Helm template ({{ }})";
    } else {
      use.error = ref.error();
    }
    use.scalar = ctx.outer ? ctx.outer : scalar;
    use.position = use.scalar.position();
    use.disabled_by = disabled;
    use.configmap_key = data_key_;
    out_.uses.push_back(std::move(use));
  }

  ImageInventory& out_;
  // Paths of mappings whose `image` is only a name the injector completes (injector_images).
  std::vector<std::string> name_parts_;
  bool configmap_ = false;
  // The key of the ConfigMap's data being walked; empty outside a ConfigMap's data.
  std::string data_key_;
};

}  // namespace

std::string_view confidence_name(Confidence confidence) {
  switch (confidence) {
    case Confidence::kCertain:
      return "certain";
    case Confidence::kLikely:
      return "likely";
    case Confidence::kPossible:
      break;
  }
  return "possible";
}

bool ModelUse::pinned() const {
  return revision.size() == 40 && std::all_of(revision.begin(), revision.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

ImageInventory discover_images(const Bundle& bundle) {
  // Objects are walked independently (a Discoverer keeps nothing from one object to the next),
  // so ranges of them run at once and their uses are joined in input order.
  constexpr size_t kRange = 512;
  std::vector<ImageInventory> parts((bundle.objects.size() + kRange - 1) / kRange);
  parallel_for(parts.size(), bundle.input.jobs, [&](size_t p) {
    Discoverer d(parts[p]);
    size_t end = std::min(bundle.objects.size(), (p + 1) * kRange);
    for (size_t i = p * kRange; i < end; ++i) {
      const Object& obj = bundle.objects[i];
      if (!obj.replaced()) d.object(obj);  // a replaced definition's images are never pulled
    }
  });
  ImageInventory out;
  for (ImageInventory& part : parts) {
    std::move(part.uses.begin(), part.uses.end(), std::back_inserter(out.uses));
    std::move(part.models.begin(), part.models.end(), std::back_inserter(out.models));
  }
  std::unordered_map<std::string, size_t> by_ref;
  for (size_t i = 0; i < out.uses.size(); ++i) {
    const ImageUse& use = out.uses[i];
    if (!use.ref) {
      ++out.invalid;
      continue;
    }
    auto [it, added] = by_ref.emplace(use.ref->normalized(), out.images.size());
    if (added) {
      Image image;
      image.ref = *use.ref;
      image.written = use.written;
      image.confidence = use.confidence;
      image.disabled_by = use.disabled_by;
      out.images.push_back(std::move(image));
    }
    Image& image = out.images[it->second];
    image.uses.push_back(i);
    image.confidence = std::min(image.confidence, use.confidence);
    if (use.disabled_by.empty()) image.disabled_by.clear();
  }
  return out;
}

}  // namespace footprint
