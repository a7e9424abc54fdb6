// libFuzzer harness: label selectors (metav1.LabelSelector and plain label maps) read from
// YAML, printed and matched against the labels of the same document.
#include <cstddef>
#include <cstdint>
#include <string>

#include "load/yaml.h"
#include "model/selector.h"

using namespace footprint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  yaml::Limits limits;
  limits.max_alias_expansion = 100'000;
  auto docs = yaml::parse(std::string_view(reinterpret_cast<const char*>(data), size), limits);
  if (!docs) return 0;
  for (const yaml::Document& doc : *docs) {
    yaml::Node root = doc.root;
    Labels labels = read_labels(root.get("labels"));
    for (yaml::Node node : {root.get("selector"), root}) {
      if (auto s = parse_label_selector(node)) {
        s->matches(labels);
        s->only_exclusions();
        s->to_string();
      }
      if (auto s = parse_label_map_selector(node)) {
        s->matches(labels);
        s->to_string();
      }
    }
  }
  return 0;
}
