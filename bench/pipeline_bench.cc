// Micro-benchmarks of the parser and the audit pipeline on generated manifests. The end-to-end
// figures (MB/s, peak RSS, PyYAML baseline) come from bench/run.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "analysis/analyze.h"
#include "analysis/models/inventory.h"
#include "load/loader.h"
#include "model/object.h"
#include "report/report.h"

namespace footprint {
namespace {

// A stream of Deployments and ConfigMaps shaped like chart output.
std::string generated_stream(int objects) {
  std::string text;
  for (int i = 0; i < objects; ++i) {
    text += fmt::format(
        "---\n# Source: app/templates/deploy.yaml\napiVersion: apps/v1\nkind: Deployment\n"
        "metadata:\n  name: app-{0}\n  labels: {{app: app-{0}, tier: backend}}\nspec:\n"
        "  replicas: 2\n  selector:\n    matchLabels: {{app: app-{0}}}\n  template:\n"
        "    metadata:\n      labels: {{app: app-{0}}}\n    spec:\n      containers:\n"
        "      - name: main\n        image: registry.example.com/app:{0}\n        args: "
        "[\"--port=8080\", \"--verbose\"]\n        ports: [{{containerPort: 8080}}]\n"
        "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg-{0}\ndata:\n"
        "  config.yaml: |\n    key: value\n    other: \"{0}\"\n",
        i);
  }
  return text;
}

void BM_Parse(benchmark::State& state) {
  std::string text = generated_stream(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto docs = yaml::parse(text);
    benchmark::DoNotOptimize(docs);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Parse)->Arg(1000);

void BM_AuditJson(benchmark::State& state) {
  std::string text = generated_stream(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto loaded = load_texts({{"bench.yaml", text}}, LoadOptions{});
    Bundle bundle = build_bundle(std::move(*loaded), BundleOptions{});
    Report report;
    report.bundle = &bundle;
    report.inventory = take_inventory(bundle);
    report.analysis = analyze(bundle, Config{});
    std::string out = render_json(report);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_AuditJson)->Arg(1000);

}  // namespace
}  // namespace footprint

BENCHMARK_MAIN();
