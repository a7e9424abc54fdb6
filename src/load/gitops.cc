#include "load/gitops.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "load/base64.h"
#include "load/helm.h"
#include "load/kustomize.h"
#include "load/process.h"
#include "util/strings.h"

namespace footprint {

namespace {

namespace fs = std::filesystem;

std::string_view kind_of(const RawObject& o) {
  return o.node.get("kind").str();
}
std::string_view group_of(const RawObject& o) {
  std::string_view api = o.node.get("apiVersion").str();
  size_t slash = api.find('/');
  return slash == std::string_view::npos ? std::string_view() : api.substr(0, slash);
}
std::string name_of(const RawObject& o) {
  return std::string(o.node.at({"metadata", "name"}).str());
}
std::string namespace_of(const RawObject& o) {
  return std::string(o.node.at({"metadata", "namespace"}).str());
}
std::string display(const RawObject& o) {
  std::string ns = namespace_of(o);
  return fmt::format("{} {}{}", kind_of(o), ns.empty() ? "" : ns + "/", name_of(o));
}

bool is_argo(const RawObject& o) {
  return group_of(o) == "argoproj.io";
}
bool is_flux(const RawObject& o, std::string_view group) {
  return group_of(o) == group;
}

// A Git URL as written and as a mapping names it: no trailing slash or ".git".
std::string normal_url(std::string_view url) {
  while (url.ends_with('/'))
    url.remove_suffix(1);
  if (url.ends_with(".git")) url.remove_suffix(4);
  return std::string(url);
}

// What resolving one input's GitOps objects needs at hand.
class Resolver {
 public:
  Resolver(const LoadedInput& input, const GitopsOptions& options)
      : input_(input), options_(options) {}

  tl::expected<GitopsResult, std::string> run() {
    for (const RawObject& o : input_.objects) {
      if (!is_gitops_object(o)) continue;
      std::string_view kind = kind_of(o);
      std::optional<std::string> error;
      if (is_argo(o) && kind == "Application") {
        error = application(o);
        delivered_by(o, argo_cd_path(o));
      } else if (is_flux(o, "helm.toolkit.fluxcd.io") && kind == "HelmRelease") {
        error = helm_release(o);
        delivered_by(o, "flux");
      } else if (is_flux(o, "kustomize.toolkit.fluxcd.io") && kind == "Kustomization") {
        error = flux_kustomization(o);
        delivered_by(o, "flux");
      } else if (kind == "ApplicationSet") {
        result_.notes.push_back(fmt::format(
            "{} ({}:{}) not expanded: its generators make Applications from the cluster, Git or "
            "an API at run time, which footprint does not reach; give the Applications it makes",
            display(o), file(o), o.position.line));
        skip(o, "ApplicationSets, not expanded: their generators run in the cluster");
      } else {
        result_.notes.push_back(fmt::format(
            "{} ({}:{}) not audited: it configures the GitOps tool; the objects that name it are "
            "resolved through it",
            display(o), file(o), o.position.line));
        skip(o, "GitOps sources and projects, which configure the GitOps tool");
      }
      if (error)
        return tl::unexpected(
            fmt::format("{} ({}:{}): {}", display(o), file(o), o.position.line, *error));
    }
    return std::move(result_);
  }

 private:
  const std::string& file(const RawObject& o) const { return input_.files[o.file]; }

  // Argo CD applies client-side unless the Application's sync options turn on server-side apply
  // (Argo CD's sync-options.md: ServerSideApply=true).
  static std::string argo_cd_path(const RawObject& app) {
    yaml::Node options = app.node.at({"spec", "syncPolicy", "syncOptions"});
    for (size_t i = 0; i < options.size(); ++i) {
      if (options.item(i).str() == "ServerSideApply=true") return "argocd-ssa";
    }
    return "argocd";
  }

  void delivered_by(const RawObject& o, const std::string& path) {
    if (contains(result_.delivery_paths, path)) return;
    result_.delivery_paths.push_back(path);
    result_.notes.push_back(fmt::format(
        "{} ({}:{}) is delivered by {}: without --deploy-with, the report judges that delivery "
        "path",
        display(o), file(o), o.position.line, path));
  }

  void skip(const RawObject& o, std::string reason) {
    result_.skipped.push_back(
        Skipped{Skipped::Unit::kObject, file(o), o.position.line, display(o), std::move(reason)});
  }

  // A file the GitOps tool leaves out of a folder of manifests, as footprint does.
  void skip_file(const fs::path& path) {
    result_.skipped.push_back(
        Skipped{Skipped::Unit::kFile, path.generic_string(), 0, "", "not .yaml, .yml or .json"});
  }

  // The text of a node as a YAML document of its own: the node's bytes in its file, indented as
  // they are there, so that a block mapping parses as written.
  tl::expected<std::string, std::string> node_text(const RawObject& o, yaml::Node node) {
    const std::string& path = file(o);
    std::string text;
    if (o.file < input_.texts.size()) {
      text = input_.texts[o.file];
    } else if (path != "-" && input_.renderer_of(path).empty()) {
      auto read = read_text_file(path);
      if (!read) return tl::unexpected(read.error());
      text = std::move(*read);
    } else {
      return tl::unexpected(std::string(
          "its values are inline in standard input or rendered output: give it as a file"));
    }
    if (node.end_offset() > text.size()) return tl::unexpected(std::string("cannot read values"));
    return std::string(node.position().column - 1, ' ') +
           text.substr(node.begin_offset(), node.end_offset() - node.begin_offset()) + "\n";
  }

  // A values file in the private folder; Secret values go only there, never to output.
  tl::expected<std::string, std::string> values_file(const std::string& text) {
    if (scratch_.path().empty())
      return tl::unexpected(std::string("cannot make a folder in the temporary folder"));
    fs::path path = scratch_.path() / fmt::format("values-{}.yaml", ++files_);
    std::ofstream out(path);
    out << text;
    out.close();
    if (!out) return tl::unexpected(std::string("cannot write a values file"));
    return path.string();
  }

  // The local checkout of a Git repository.
  tl::expected<std::string, std::string> checkout(std::string_view url) {
    std::string want = normal_url(url);
    for (const auto& [from, dir] : options_.sources) {
      if (normal_url(from) == want) return dir;
    }
    return tl::unexpected(fmt::format(
        "{} is a Git repository, which footprint does not fetch: map it to a local checkout with "
        "--source {}=DIR",
        url, url));
  }

  const RawObject* find(std::string_view kind, std::string_view group, const std::string& name,
                        const std::string& ns) const {
    for (const RawObject& o : input_.objects) {
      if (kind_of(o) == kind && group_of(o) == group && name_of(o) == name && namespace_of(o) == ns)
        return &o;
    }
    return nullptr;
  }

  void add(std::string name, std::string text, std::string renderer, std::string ns) {
    NamedText t{std::move(name), std::move(text)};
    t.renderer = std::move(renderer);
    t.namespace_ = std::move(ns);
    result_.rendered.push_back(std::move(t));
  }

  std::optional<std::string> render_helm(const std::string& name, const std::string& chart,
                                         const ChartOptions& chart_options) {
    auto rendered = render_chart(chart, chart_options);
    if (!rendered) return rendered.error().message;
    add(name, std::move(rendered->text), "helm", chart_options.namespace_);
    return std::nullopt;
  }

  std::optional<std::string> render_kustomize(const std::string& name, const std::string& dir,
                                              const std::string& ns, bool load_anywhere = false) {
    auto rendered = render_kustomization(dir, load_anywhere);
    if (!rendered) return rendered.error();
    add(name, std::move(*rendered), "kustomize", ns);
    return std::nullopt;
  }

  // A folder of manifests, read as `kubectl apply -f DIR` reads it: its .yaml, .yml and .json
  // files, and those of its subfolders when `recurse`.
  std::optional<std::string> read_directory(const std::string& dir, bool recurse,
                                            const std::string& ns) {
    std::vector<std::string> paths;
    std::error_code ec;
    auto take = [&](const fs::directory_entry& e) {
      std::string ext = e.path().extension().string();
      if (!e.is_regular_file(ec)) return;
      if (ext == ".yaml" || ext == ".yml" || ext == ".json") {
        paths.push_back(e.path().string());
      } else {
        skip_file(e.path());
      }
    };
    if (recurse) {
      for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        take(*it);
    } else {
      for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        take(*it);
    }
    if (ec) return fmt::format("cannot read {}: {}", dir, ec.message());
    std::sort(paths.begin(), paths.end());
    for (const std::string& p : paths) {
      auto text = read_text_file(p);
      if (!text) return text.error();
      add(p, std::move(*text), "", ns);
    }
    return std::nullopt;
  }

  // --- Argo CD ---

  std::optional<std::string> application(const RawObject& app) {
    yaml::Node spec = app.node.get("spec");
    std::string ns(spec.at({"destination", "namespace"}).str());
    std::vector<yaml::Node> sources;
    if (yaml::Node list = spec.get("sources"); list.size() > 0) {
      for (size_t i = 0; i < list.size(); ++i)
        sources.push_back(list.item(i));
    } else if (spec.get("source").is_mapping()) {
      sources.push_back(spec.get("source"));
    }
    if (sources.empty()) return std::string("it has no spec.source or spec.sources");
    // `ref` sources lend their repository to $ref/ value files of the others.
    std::map<std::string, std::string> refs;
    for (yaml::Node s : sources) {
      std::string_view ref = s.get("ref").str();
      if (ref.empty()) continue;
      auto dir = checkout(s.get("repoURL").str());
      if (!dir) return dir.error();
      refs[std::string(ref)] = *dir;
    }
    std::vector<std::string> what;
    for (size_t i = 0; i < sources.size(); ++i) {
      yaml::Node s = sources[i];
      if (!s.get("ref").str().empty() && s.get("path").str().empty() &&
          s.get("chart").str().empty())
        continue;
      std::string name = sources.size() == 1
                             ? fmt::format("{} ({})", file(app), display(app))
                             : fmt::format("{} ({}, source {})", file(app), display(app), i + 1);
      auto done = application_source(app, s, ns, refs, name);
      if (!done) return done.error();
      what.push_back(*done);
    }
    result_.notes.push_back(fmt::format(
        "{} ({}:{}): audited what it deploys into namespace {}: {}", display(app), file(app),
        app.position.line, ns.empty() ? "(the release namespace)" : ns, fmt::join(what, "; ")));
    return std::nullopt;
  }

  tl::expected<std::string, std::string> application_source(
      const RawObject& app, yaml::Node s, const std::string& ns,
      const std::map<std::string, std::string>& refs, const std::string& name) {
    // What Argo CD would select or run that footprint cannot: an error, never a guess.
    if (s.get("plugin"))
      return tl::unexpected(std::string(
          "its source uses a Config Management Plugin, which footprint does not run: give what "
          "the plugin renders (argocd app manifests) as an input"));
    if (s.at({"directory", "include"}) || s.at({"directory", "exclude"}))
      return tl::unexpected(std::string(
          "its directory source selects files with include or exclude patterns, which footprint "
          "does not apply: give the files it selects as inputs"));
    std::string_view repo = s.get("repoURL").str();
    std::string_view chart = s.get("chart").str();
    std::string_view path = s.get("path").str();
    yaml::Node helm = s.get("helm");
    ChartOptions chart_options;
    chart_options.namespace_ = ns.empty() ? "default" : ns;
    chart_options.release = helm.get("releaseName").str().empty()
                                ? name_of(app)
                                : std::string(helm.get("releaseName").str());
    if (helm.get("skipCrds").str() == "true") chart_options.include_crds = false;
    std::string chart_path;
    std::string base;  // where value files are found
    if (!chart.empty()) {
      ChartPullOptions pull = options_.pull;
      pull.version = std::string(s.get("targetRevision").str());
      // Argo CD: a repoURL without a scheme is an OCI registry.
      bool oci = repo.find("://") == std::string_view::npos || repo.starts_with("oci://");
      std::string reference;
      if (oci) {
        std::string registry(repo.starts_with("oci://") ? repo.substr(6) : repo);
        reference = fmt::format("oci://{}/{}", normal_url(registry), chart);
      } else {
        reference = std::string(chart);
        pull.repo_url = std::string(repo);
      }
      auto pulled = pull_chart(reference, pull);
      if (!pulled) return tl::unexpected(pulled.error());
      chart_path = *pulled;
    } else {
      auto dir = checkout(repo);
      if (!dir) return tl::unexpected(dir.error());
      fs::path local = fs::path(*dir) / std::string(path);
      base = local.string();
      std::error_code ec;
      if (!fs::is_directory(local, ec))
        return tl::unexpected(fmt::format("path {} is not a folder of {}", path, *dir));
      if (!is_chart(base) && !helm) {
        if (is_kustomization(base) || s.get("kustomize")) {
          if (auto e = render_kustomize(name, base, ns)) return tl::unexpected(*e);
          return fmt::format("kustomization {}", base);
        }
        bool recurse = s.at({"directory", "recurse"}).str() == "true";
        if (auto e = read_directory(base, recurse, ns)) return tl::unexpected(*e);
        return fmt::format("manifests in {}{}", base, recurse ? " and its subfolders" : "");
      }
      chart_path = base;
    }
    // Argo CD passes value files first, then values or valuesObject, then parameters.
    yaml::Node files = helm.get("valueFiles");
    for (size_t i = 0; i < files.size(); ++i) {
      std::string f(files.item(i).str());
      if (f.starts_with("$")) {
        size_t slash = f.find('/');
        auto ref = refs.find(f.substr(1, slash == std::string::npos ? slash : slash - 1));
        if (ref == refs.end())
          return tl::unexpected(fmt::format("value file {}: no source has that ref", f));
        f = (fs::path(ref->second) / f.substr(slash + 1)).string();
      } else if (!base.empty()) {
        f = (fs::path(base) / f).string();
      }
      chart_options.values_files.push_back(f);
    }
    for (std::string_view key : {"values", "valuesObject"}) {
      yaml::Node values = helm.get(key);
      if (!values || values.is_null()) continue;
      auto text = values.is_scalar()
                      ? tl::expected<std::string, std::string>(std::string(values.text()))
                      : node_text(app, values);
      if (!text) return tl::unexpected(text.error());
      auto written = values_file(*text);
      if (!written) return tl::unexpected(written.error());
      chart_options.values_files.push_back(*written);
    }
    yaml::Node parameters = helm.get("parameters");
    for (size_t i = 0; i < parameters.size(); ++i) {
      yaml::Node p = parameters.item(i);
      std::string set = fmt::format("{}={}", p.get("name").str(), p.get("value").str());
      (p.get("forceString").str() == "true" ? chart_options.set_string : chart_options.set)
          .push_back(set);
    }
    std::string shown = chart.empty() ? chart_path : fmt::format("{} {}", repo, chart);
    if (auto e = render_helm(name, chart_path, chart_options)) return tl::unexpected(*e);
    return fmt::format("chart {} as release {}", shown, chart_options.release);
  }

  // --- Flux ---

  std::optional<std::string> helm_release(const RawObject& hr) {
    yaml::Node spec = hr.node.get("spec");
    std::string hr_ns = namespace_of(hr);
    std::string target(spec.get("targetNamespace").str());
    std::string ns = target.empty() ? hr_ns : target;
    ChartOptions chart_options;
    chart_options.namespace_ = ns.empty() ? "default" : ns;
    chart_options.release = spec.get("releaseName").str().empty()
                                ? (target.empty() ? name_of(hr) : target + "-" + name_of(hr))
                                : std::string(spec.get("releaseName").str());
    // install.crds: Create (the default) and CreateReplace install the chart's crds/; Skip does
    // not.
    if (spec.at({"install", "crds"}).str() == "Skip") chart_options.include_crds = false;
    std::string chart_path;
    std::string shown;
    yaml::Node chart_spec = spec.at({"chart", "spec"});
    ChartPullOptions pull = options_.pull;
    if (yaml::Node ref = spec.get("chartRef"); ref.is_mapping()) {
      std::string kind(ref.get("kind").str());
      std::string ref_ns =
          ref.get("namespace").str().empty() ? hr_ns : std::string(ref.get("namespace").str());
      const RawObject* repo =
          find(kind, "source.toolkit.fluxcd.io", std::string(ref.get("name").str()), ref_ns);
      if (kind != "OCIRepository" || !repo)
        return fmt::format("chartRef names {} {}/{}, which is not an OCIRepository in the input",
                           kind, ref_ns, ref.get("name").str());
      yaml::Node repo_spec = repo->node.get("spec");
      pull.version = std::string(repo_spec.at({"ref", "tag"}).str());
      if (pull.version.empty()) pull.version = std::string(repo_spec.at({"ref", "semver"}).str());
      if (repo_spec.get("insecure").str() == "true") pull.plain_http = true;
      shown = std::string(repo_spec.get("url").str());
      auto pulled = pull_chart(shown, pull);
      if (!pulled) return pulled.error();
      chart_path = *pulled;
    } else if (chart_spec.is_mapping()) {
      std::string chart(chart_spec.get("chart").str());
      yaml::Node source = chart_spec.get("sourceRef");
      std::string kind(source.get("kind").str());
      std::string source_ns = source.get("namespace").str().empty()
                                  ? hr_ns
                                  : std::string(source.get("namespace").str());
      const RawObject* repo =
          find(kind, "source.toolkit.fluxcd.io", std::string(source.get("name").str()), source_ns);
      if (!repo)
        return fmt::format(
            "its chart's source {} {}/{} is not in the input: add the file that defines it", kind,
            source_ns, source.get("name").str());
      yaml::Node repo_spec = repo->node.get("spec");
      std::string url(repo_spec.get("url").str());
      if (kind == "GitRepository") {
        auto dir = checkout(url);
        if (!dir) return dir.error();
        chart_path = (fs::path(*dir) / chart).string();
        shown = fmt::format("{} in {}", chart, url);
        yaml::Node files = chart_spec.get("valuesFiles");
        for (size_t i = 0; i < files.size(); ++i)
          chart_options.values_files.push_back(
              (fs::path(*dir) / std::string(files.item(i).str())).string());
      } else if (kind == "HelmRepository") {
        pull.version = std::string(chart_spec.get("version").str());
        if (pull.version == "*") pull.version.clear();
        std::string reference = chart;
        if (repo_spec.get("type").str() == "oci" || url.starts_with("oci://")) {
          reference = fmt::format("{}/{}", normal_url(url), chart);
          if (repo_spec.get("insecure").str() == "true") pull.plain_http = true;
        } else {
          pull.repo_url = url;
        }
        shown = fmt::format("{} from {}", chart, url);
        auto pulled = pull_chart(reference, pull);
        if (!pulled) return pulled.error();
        chart_path = *pulled;
      } else {
        return fmt::format("its chart's source is a {}, which footprint does not resolve", kind);
      }
    } else {
      return std::string("it has neither spec.chart nor spec.chartRef");
    }
    // Flux merges valuesFrom in order, then spec.values over them.
    yaml::Node from = spec.get("valuesFrom");
    for (size_t i = 0; i < from.size(); ++i) {
      if (auto e = values_from(from.item(i), hr_ns, chart_options)) return e;
    }
    if (yaml::Node values = spec.get("values"); values.is_mapping()) {
      auto text = node_text(hr, values);
      if (!text) return text.error();
      auto written = values_file(*text);
      if (!written) return written.error();
      chart_options.values_files.push_back(*written);
    }
    std::string name = fmt::format("{} ({})", file(hr), display(hr));
    if (auto e = render_helm(name, chart_path, chart_options)) return e;
    result_.notes.push_back(fmt::format(
        "{} ({}:{}): audited chart {} as release {} in namespace {}{}", display(hr), file(hr),
        hr.position.line, shown, chart_options.release, chart_options.namespace_,
        chart_options.include_crds ? "" : ", without its crds/ (install.crds: Skip)"));
    return std::nullopt;
  }

  // One valuesFrom entry: a key of a ConfigMap or Secret in the input. Secret values are written
  // only to the private values file helm reads, never shown.
  std::optional<std::string> values_from(yaml::Node entry, const std::string& ns,
                                         ChartOptions& chart_options) {
    std::string kind(entry.get("kind").str());
    std::string name(entry.get("name").str());
    std::string key = entry.get("valuesKey").str().empty()
                          ? "values.yaml"
                          : std::string(entry.get("valuesKey").str());
    bool optional = entry.get("optional").str() == "true";
    const RawObject* source =
        (kind == "ConfigMap" || kind == "Secret") ? find(kind, "", name, ns) : nullptr;
    std::optional<std::string> value;
    if (source && kind == "ConfigMap") {
      if (yaml::Node v = source->node.at({"data", key}); v.is_scalar())
        value = std::string(v.text());
    } else if (source) {
      if (yaml::Node v = source->node.at({"stringData", key}); v.is_scalar()) {
        value = std::string(v.text());
      } else if (yaml::Node d = source->node.at({"data", key}); d.is_scalar()) {
        value = base64_decode(d.text());
        if (!value)
          return fmt::format("valuesFrom Secret {}/{}: key {} is not base64", ns, name, key);
      }
    }
    if (!value) {
      if (optional) return std::nullopt;
      return fmt::format(
          "valuesFrom {} {}/{} key {} is not in the input: add the file that defines it", kind, ns,
          name, key);
    }
    std::string_view target = entry.get("targetPath").str();
    if (!target.empty()) {
      // helm --set-file, not --set: a Secret's value in an argument would show in process
      // listings. The value is set as a string.
      auto written = values_file(*value);
      if (!written) return written.error();
      chart_options.set_file.push_back(fmt::format("{}={}", target, *written));
      return std::nullopt;
    }
    auto written = values_file(*value);
    if (!written) return written.error();
    chart_options.values_files.push_back(*written);
    return std::nullopt;
  }

  std::optional<std::string> flux_kustomization(const RawObject& k) {
    yaml::Node spec = k.node.get("spec");
    std::string k_ns = namespace_of(k);
    yaml::Node source = spec.get("sourceRef");
    std::string kind(source.get("kind").str());
    std::string source_ns =
        source.get("namespace").str().empty() ? k_ns : std::string(source.get("namespace").str());
    const RawObject* repo =
        find(kind, "source.toolkit.fluxcd.io", std::string(source.get("name").str()), source_ns);
    if (kind != "GitRepository" || !repo)
      return fmt::format("its source {} {}/{} is not a GitRepository in the input", kind, source_ns,
                         source.get("name").str());
    std::string url(repo->node.at({"spec", "url"}).str());
    auto dir = checkout(url);
    if (!dir) return dir.error();
    std::string path(spec.get("path").str());
    fs::path local = fs::absolute(fs::path(*dir) / path).lexically_normal();
    std::error_code ec;
    if (!fs::is_directory(local, ec))
      return fmt::format("path {} is not a folder of {}", path, *dir);
    std::string target(spec.get("targetNamespace").str());
    std::string prefix(spec.get("namePrefix").str());
    // As kustomize-controller does: the folder's kustomization, or one listing its manifests,
    // under an overlay that sets targetNamespace and namePrefix.
    if (scratch_.path().empty()) return std::string("cannot make a folder in the temporary folder");
    fs::path overlay = scratch_.path() / fmt::format("kustomization-{}", ++files_);
    fs::create_directory(overlay, ec);
    std::string resources;
    if (is_kustomization(local.string())) {
      resources = fmt::format("  - {}\n", local.string());
    } else {
      for (fs::recursive_directory_iterator it(local, ec), end; !ec && it != end;
           it.increment(ec)) {
        std::string ext = it->path().extension().string();
        if (!it->is_regular_file(ec)) continue;
        if (ext == ".yaml" || ext == ".yml" || ext == ".json") {
          resources += fmt::format("  - {}\n", it->path().string());
        } else {
          skip_file(it->path());
        }
      }
    }
    std::ofstream out(overlay / "kustomization.yaml");
    out << "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n";
    if (!target.empty()) out << "namespace: " << target << "\n";
    if (!prefix.empty()) out << "namePrefix: " << prefix << "\n";
    out << "resources:\n" << resources;
    out.close();
    std::string name = fmt::format("{} ({})", file(k), display(k));
    if (auto e = render_kustomize(name, overlay.string(), target, true)) return e;
    result_.notes.push_back(fmt::format("{} ({}:{}): audited {} of {}{}{}", display(k), file(k),
                                        k.position.line, path, url,
                                        target.empty() ? "" : " into namespace " + target,
                                        prefix.empty() ? "" : ", names prefixed " + prefix));
    return std::nullopt;
  }

  const LoadedInput& input_;
  const GitopsOptions& options_;
  PrivateDir scratch_;
  int files_ = 0;
  GitopsResult result_;
};

}  // namespace

bool is_gitops_object(const RawObject& o) {
  std::string_view kind = kind_of(o);
  if (is_argo(o)) return kind == "Application" || kind == "ApplicationSet" || kind == "AppProject";
  if (is_flux(o, "helm.toolkit.fluxcd.io")) return kind == "HelmRelease";
  if (is_flux(o, "kustomize.toolkit.fluxcd.io")) return kind == "Kustomization";
  return is_flux(o, "source.toolkit.fluxcd.io");
}

tl::expected<GitopsResult, std::string> resolve_gitops(const LoadedInput& input,
                                                       const GitopsOptions& options) {
  Resolver resolver(input, options);
  return resolver.run();
}

tl::expected<std::pair<std::string, std::string>, std::string> parse_source_mapping(
    const std::string& text) {
  size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    return tl::unexpected(fmt::format("--source {}: give URL=DIR", text));
  std::string dir = text.substr(eq + 1);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return tl::unexpected(fmt::format("--source {}: {} is not a folder", text, dir));
  return std::pair{text.substr(0, eq), dir};
}

}  // namespace footprint
