// Reading a cluster snapshot of 20,000 objects (one kind: List, as kubectl writes it) and
// building the models an audit with --cluster builds over it.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "analysis/context.h"
#include "model/cluster.h"

namespace footprint {
namespace {

// 20,000 objects: per team namespace, a Namespace, a Role, a RoleBinding to edit, a
// ServiceAccount and a Service, plus ClusterRoles and webhooks.
std::string generated_snapshot(int teams) {
  std::string text = "apiVersion: v1\nkind: List\nitems:\n";
  for (int i = 0; i < teams; ++i) {
    text += fmt::format(
        "- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: team-{0}\n"
        "    labels: {{kubernetes.io/metadata.name: team-{0}, team: t{0}}}\n"
        "- apiVersion: rbac.authorization.k8s.io/v1\n  kind: Role\n"
        "  metadata: {{name: app, namespace: team-{0}}}\n"
        "  rules: [{{apiGroups: [\"\"], resources: [configmaps], verbs: [get, list]}}]\n"
        "- apiVersion: rbac.authorization.k8s.io/v1\n  kind: RoleBinding\n"
        "  metadata: {{name: devs, namespace: team-{0}}}\n"
        "  roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}}\n"
        "  subjects: [{{kind: Group, name: team-{0}-devs}}]\n"
        "- apiVersion: v1\n  kind: ServiceAccount\n  metadata: {{name: app, namespace: team-{0}}}\n"
        "- apiVersion: v1\n  kind: Service\n  metadata: {{name: app, namespace: team-{0}}}\n"
        "  spec: {{selector: {{app: app}}, ports: [{{port: 80, targetPort: 8080}}]}}\n",
        i);
  }
  return text;
}

void BM_ClusterSnapshot(benchmark::State& state) {
  std::string text = generated_snapshot(static_cast<int>(state.range(0)) / 5);
  auto bundle_input = load_texts({{"bundle.yaml",
                                   "apiVersion: v1\nkind: ServiceAccount\n"
                                   "metadata: {name: op, namespace: op}\n"}},
                                 LoadOptions{});
  Bundle bundle = build_bundle(std::move(*bundle_input), BundleOptions{"op"});
  for (auto _ : state) {
    auto cluster = load_cluster_text("cluster.yaml", text);
    Context context(bundle, {}, {}, &*cluster);
    benchmark::DoNotOptimize(context.namespaces.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ClusterSnapshot)->Arg(20'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace footprint
