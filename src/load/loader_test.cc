#include "load/loader.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "util/test_skip.h"

namespace footprint {
namespace {

LoadedInput load_ok(std::string text, LoadOptions options = {}) {
  auto loaded = load_texts({{"in.yaml", std::move(text)}}, options);
  EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().front().to_string());
  return loaded ? std::move(*loaded) : LoadedInput{};
}

std::vector<LoadError> load_fails(std::string text) {
  auto loaded = load_texts({{"in.yaml", std::move(text)}}, LoadOptions{});
  EXPECT_FALSE(loaded.has_value());
  return loaded ? std::vector<LoadError>{} : loaded.error();
}

TEST(Loader, HelmOutputKeepsSourceAndLines) {
  LoadedInput in = load_ok(
      "---\n# Source: dynamo/templates/sa.yaml\napiVersion: v1\nkind: ServiceAccount\n"
      "metadata:\n  name: op\n---\n# Source: dynamo/templates/empty.yaml\n---\n"
      "# Source: dynamo/templates/role.yaml\napiVersion: rbac.authorization.k8s.io/v1\n"
      "kind: Role\nmetadata:\n  name: r\n");
  ASSERT_EQ(in.objects.size(), 2u);
  EXPECT_EQ(in.objects[0].helm_source, "dynamo/templates/sa.yaml");
  EXPECT_EQ(in.objects[0].position.line, 3u);
  EXPECT_EQ(in.objects[1].helm_source, "dynamo/templates/role.yaml");
  EXPECT_EQ(in.objects[1].position.line, 11u);
}

// `helm template --include-crds` writes each file of a chart's crds/ folder as `---`, its
// `# Source:` comment, then the file, which starts with its own `---` (kuberay's do): the comment
// sits alone in an empty document and names the next one. A chunk never ends between the two,
// even when the chunk's size limit falls on the comment.
TEST(Loader, SourceCommentInItsOwnDocumentNamesTheNext) {
  std::string crd =
      "---\n# Source: ray/crds/ray.io_rayjobs.yaml\n---\napiVersion: apiextensions.k8s.io/v1\n"
      "kind: CustomResourceDefinition\nmetadata:\n  name: rayjobs.ray.io\n";
  LoadedInput small = load_ok(crd);
  ASSERT_EQ(small.objects.size(), 1u);
  EXPECT_EQ(small.objects[0].helm_source, "ray/crds/ray.io_rayjobs.yaml");

  std::string head = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n  k: ";
  size_t comment_at = (1u << 20) - 5;  // the first chunk's size limit falls inside the comment
  std::string text = head + std::string(comment_at - head.size() - 5, 'a') + "\n" + crd;
  ASSERT_EQ(text.find("# Source"), comment_at);
  LoadedInput big = load_ok(text);
  ASSERT_EQ(big.objects.size(), 2u);
  EXPECT_EQ(big.objects[1].helm_source, "ray/crds/ray.io_rayjobs.yaml");
  EXPECT_EQ(big.objects[1].position.line, 9u);
}

TEST(Loader, UnwrapsLists) {
  LoadedInput in = load_ok(
      "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: "
      "{name: a}\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: b}\n---\n"
      "apiVersion: v1\nkind: ServiceList\nitems:\n- apiVersion: v1\n  kind: Service\n"
      "  metadata: {name: c}\n");
  ASSERT_EQ(in.objects.size(), 3u);
  EXPECT_EQ(in.objects[1].node.get("kind").text(), "Secret");
  EXPECT_EQ(in.objects[1].list_index, 1);
  EXPECT_EQ(in.objects[1].position.line, 7u);
  EXPECT_EQ(in.objects[2].node.get("kind").text(), "Service");
}

TEST(Loader, SkipsEmptyAndCommentOnlyDocuments) {
  LoadedInput in = load_ok(
      "---\n---\n# nothing here\n---\napiVersion: v1\nkind: Namespace\n"
      "metadata: {name: x}\n---\n...\n");
  EXPECT_EQ(in.objects.size(), 1u);
}

TEST(Loader, ErrorsNameTheLocation) {
  auto errors = load_fails("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n- a\n- b\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].to_string(),
            "in.yaml:5:1: expected a Kubernetes object (a mapping), found a sequence");
}

TEST(Loader, MissingKindOrApiVersionOrName) {
  auto errors = load_fails(
      "apiVersion: v1\nmetadata: {name: a}\n---\nkind: Pod\nmetadata: {name: b}\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata: {labels: {}}\n---\napiVersion: v1\nkind: ''\n"
      "metadata: {name: d}\n");
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(errors[0].to_string(), "in.yaml:1:1: object has no kind");
  EXPECT_EQ(errors[1].to_string(), "in.yaml:4:1: object has no apiVersion");
  EXPECT_EQ(errors[2].to_string(),
            "in.yaml:7:1: Pod has no metadata.name; kubectl apply fails with \"resource name may "
            "not be empty\"");
  EXPECT_EQ(errors[3].to_string(), "in.yaml:12:7: kind must be a non-empty string");
}

TEST(Loader, GenerateNameIsEnough) {
  LoadedInput in = load_ok("apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: hook-}\n");
  EXPECT_EQ(in.objects.size(), 1u);
}

TEST(Loader, ListItemsMustBeObjects) {
  auto errors = load_fails("apiVersion: v1\nkind: List\nitems:\n- 3\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].to_string(), "in.yaml:4:3: List item 0 is a scalar, not a Kubernetes object");
}

TEST(Loader, EmptyInputIsAnError) {
  auto errors = load_fails("");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("no Kubernetes objects"), std::string::npos);
  EXPECT_EQ(load_fails("# only a comment\n---\n").size(), 1u);
}

TEST(Loader, BinaryInputIsAnError) {
  auto errors =
      load_fails(std::string("\x7f"
                             "ELF\x02\x01\x01\0\0\0",
                             10));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("binary data"), std::string::npos);
}

TEST(Loader, ParseErrorsCarryFileLineColumn) {
  auto errors = load_fails("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].to_string(), "in.yaml:5:3: duplicate key \"name\" in mapping");
}

// Big inputs are split at `---` lines and parsed in parallel; lines must still be exact.
TEST(Loader, ChunkedParsingKeepsLinesAndOrder) {
  std::string text;
  std::vector<uint32_t> expected_lines;
  uint32_t line = 1;
  for (int i = 0; i < 40000; ++i) {
    text += "---\n";
    ++line;
    expected_lines.push_back(line);
    text += fmt::format(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{}\ndata:\n"
        "  k: |\n    ---not a marker\n    v\n",
        i);
    line += 8;
  }
  ASSERT_GT(text.size(), 3u << 20);  // several chunks
  LoadOptions parallel;
  parallel.jobs = 4;
  LoadedInput in = load_ok(text, parallel);
  ASSERT_EQ(in.objects.size(), expected_lines.size());
  for (size_t i = 0; i < expected_lines.size(); ++i) {
    ASSERT_EQ(in.objects[i].position.line, expected_lines[i]) << i;
    ASSERT_EQ(in.objects[i].node.at({"metadata", "name"}).text(), fmt::format("cm-{}", i));
  }
}

// Each chunk is assembled on its own: objects (Lists unwrapped) and errors keep the order of the
// input, the same on one thread as on four.
TEST(Loader, ChunkedLoadingKeepsObjectsAndErrorsInInputOrder) {
  std::string text;
  size_t objects = 0;
  std::vector<uint32_t> unnamed_lines;  // where the documents without a name start
  size_t yaml_errors = 0;
  uint32_t line = 1;
  for (int i = 0; i < 60000; ++i) {
    text += "---\n";
    ++line;
    switch (i % 5000) {
      case 1:
        unnamed_lines.push_back(line);
        text += "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n";
        line += 3;
        break;
      case 2:
        ++yaml_errors;
        text += "kind: [oops\n";
        line += 1;
        break;
      case 3:
        objects += 2;
        text += fmt::format(
            "apiVersion: v1\nkind: List\nitems:\n- {{apiVersion: v1, kind: Secret, metadata: "
            "{{name: s-{0}}}}}\n- {{apiVersion: v1, kind: Secret, metadata: {{name: t-{0}}}}}\n",
            i);
        line += 5;
        break;
      default:
        ++objects;
        text += fmt::format("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{}\n", i);
        line += 4;
    }
  }
  ASSERT_GT(text.size(), 3u << 20);  // several chunks
  std::vector<std::string> first_run;
  for (unsigned jobs : {1u, 4u}) {
    LoadOptions options;
    options.jobs = jobs;
    options.keep_valid_documents = true;
    LoadedInput in = load_ok(text, options);
    ASSERT_EQ(in.objects.size(), objects);
    // cm-0; the two documents in error; the List's two items; cm-4.
    EXPECT_EQ(in.objects[1].node.at({"metadata", "name"}).text(), "s-3");
    EXPECT_EQ(in.objects[2].node.at({"metadata", "name"}).text(), "t-3");
    EXPECT_EQ(in.objects[2].list_index, 1);
    EXPECT_EQ(in.objects[3].node.at({"metadata", "name"}).text(), "cm-4");
    ASSERT_EQ(in.invalid_documents.size(), unnamed_lines.size() + yaml_errors);
    std::vector<std::string> run;
    size_t unnamed = 0;
    for (size_t i = 0; i + 1 < in.objects.size(); ++i)
      ASSERT_LT(in.objects[i].position.line, in.objects[i + 1].position.line);
    for (const LoadError& e : in.invalid_documents) {
      if (e.message.find("no metadata.name") != std::string::npos) {
        EXPECT_EQ(e.position.line, unnamed_lines[unnamed++]);
      }
      run.push_back(e.to_string());
    }
    EXPECT_EQ(unnamed, unnamed_lines.size());
    for (const RawObject& o : in.objects)
      run.push_back(fmt::format("{} {}", o.position.line, o.node.at({"metadata", "name"}).text()));
    if (first_run.empty()) {
      first_run = run;
    } else {
      EXPECT_EQ(run, first_run);
    }
  }
}

TEST(Loader, ChunkedParsingReportsErrorLinesInTheWholeFile) {
  std::string text;
  for (int i = 0; i < 20000; ++i) {
    text += fmt::format("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{}\n", i);
  }
  uint32_t bad_line = static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n')) + 2;
  text += "---\nkind: [oops\n";
  auto errors = load_fails(text);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_GE(errors[0].position.line, bad_line);
}

class LoaderFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("footprint-loader-{}", ::testing::UnitTest::GetInstance()->random_seed());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "sub" / "deeper");
    std::filesystem::create_directories(dir_ / ".git");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& rel, const std::string& text) { std::ofstream(dir_ / rel) << text; }
  std::filesystem::path dir_;
};

TEST_F(LoaderFiles, DirectoriesAreWalkedRecursivelyInSortedOrder) {
  const char* cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n";
  write("b.yaml", cm);
  write("a.yml", cm);
  write("sub/deeper/c.json",
        R"({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}})");
  write("README.md", "# not a manifest\n");
  write(".git/config.yaml", "not: loaded\n");
  auto loaded = load_inputs({dir_.string()}, LoadOptions{});
  ASSERT_TRUE(loaded.has_value()) << loaded.error().front().to_string();
  ASSERT_EQ(loaded->files.size(), 3u);
  EXPECT_TRUE(loaded->files[0].ends_with("/a.yml"));
  EXPECT_TRUE(loaded->files[1].ends_with("/b.yaml"));
  EXPECT_TRUE(loaded->files[2].ends_with("/sub/deeper/c.json"));
  ASSERT_EQ(loaded->objects.size(), 3u);
  EXPECT_EQ(loaded->objects[2].node.get("kind").text(), "Secret");
  ASSERT_EQ(loaded->notes.size(), 2u);
  EXPECT_NE(loaded->notes[0].find("README.md"), std::string::npos);
  EXPECT_NE(loaded->notes[1].find(".git"), std::string::npos);
}

TEST_F(LoaderFiles, MissingAndUnreadableInputs) {
  auto loaded = load_inputs({(dir_ / "nope.yaml").string()}, LoadOptions{});
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error()[0].to_string().find("nope.yaml: no such file or directory"),
            std::string::npos);
  auto empty_dir = load_inputs({(dir_ / "sub").string()}, LoadOptions{});
  ASSERT_FALSE(empty_dir.has_value());
  EXPECT_NE(empty_dir.error()[0].message.find("no .yaml"), std::string::npos);
}

// The limits of docs/limits.md. Each is an error naming the file and the limit; the tests use
// small limits, and the defaults are checked against the documented values.
TEST(LoaderLimits, DefaultsAreTheDocumentedOnes) {
  LoadOptions o;
  EXPECT_EQ(o.limits.max_depth, 512u);
  EXPECT_EQ(o.limits.max_alias_expansion, 1'000'000u);
  EXPECT_EQ(o.max_document_bytes, uint64_t{64} << 20);
  EXPECT_EQ(o.max_file_bytes, uint64_t{1} << 30);
  EXPECT_EQ(o.max_total_bytes, uint64_t{2} << 30);
  EXPECT_EQ(o.max_directory_entries, 10'000u);
}

TEST(LoaderLimits, ADocumentOverTheLimitIsAnError) {
  std::string small = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n";
  std::string big =
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata:\n  k: " + std::string(200, 'x') +
      "\n";
  LoadOptions options;
  options.max_document_bytes = 150;
  auto loaded = load_texts({{"in.yaml", small + "---\n" + big}}, options);
  ASSERT_FALSE(loaded.has_value());
  ASSERT_EQ(loaded.error().size(), 1u);
  EXPECT_EQ(loaded.error()[0].position.line, 5u);  // the second document starts on line 5
  EXPECT_NE(loaded.error()[0].message.find("the limit is 150 bytes"), std::string::npos);
  EXPECT_TRUE(load_texts({{"in.yaml", small}}, options).has_value());
}

TEST(LoaderLimits, InputsOverTheTotalAreRefused) {
  std::string cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n";
  LoadOptions options;
  options.max_total_bytes = cm.size() * 2;
  EXPECT_TRUE(load_texts({{"a.yaml", cm}, {"b.yaml", cm}}, options).has_value());
  auto loaded = load_texts({{"a.yaml", cm}, {"b.yaml", cm}, {"c.yaml", cm}}, options);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error()[0].to_string(),
            fmt::format("3 inputs: {} bytes together; the limit on all inputs is {} bytes",
                        cm.size() * 3, cm.size() * 2));
}

TEST_F(LoaderFiles, FilesOverTheTotalAreRefusedBeforeReading) {
  std::string cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n";
  write("a.yaml", cm);
  write("b.yaml", cm);
  LoadOptions options;
  options.max_total_bytes = cm.size() * 2 - 1;
  auto loaded = load_inputs({(dir_ / "a.yaml").string(), (dir_ / "b.yaml").string()}, options);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error()[0].message.find("the limit on all inputs is"), std::string::npos);
}

TEST_F(LoaderFiles, ADirectoryWithTooManyEntriesIsAnError) {
  const char* cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n";
  write("a.yaml", cm);
  write("b.yaml", cm);
  LoadOptions options;
  // .git, a.yaml, b.yaml, sub, sub/deeper: hidden folders count but are not entered.
  options.max_directory_entries = 5;
  EXPECT_TRUE(load_inputs({dir_.string()}, options).has_value());
  write("sub/c.yaml", cm);
  auto loaded = load_inputs({dir_.string()}, options);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error()[0].message.find("more than 5 files and folders"), std::string::npos);
}

// As root every folder is readable; tests/cli/unreadable_directory.sh covers it as another user.
TEST_F(LoaderFiles, AnUnreadableSubdirectoryIsAnErrorNamingIt) {
  if (geteuid() == 0) FOOTPRINT_SKIP_LEGITIMATELY("root reads every directory");
  write("a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
  std::filesystem::permissions(dir_ / "sub", std::filesystem::perms::none);
  auto loaded = load_inputs({dir_.string()}, LoadOptions{});
  std::filesystem::permissions(dir_ / "sub", std::filesystem::perms::owner_all);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_TRUE(loaded.error()[0].file.ends_with("/sub")) << loaded.error()[0].to_string();
  EXPECT_NE(loaded.error()[0].message.find("cannot read directory"), std::string::npos);
}

}  // namespace
}  // namespace footprint
