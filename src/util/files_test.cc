#include "util/files.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace footprint {
namespace {

namespace fs = std::filesystem;

class WriteTargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "footprint-files-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = fs::canonical(pattern);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const char* name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(WriteTargetTest, RegularFilesAndSymlinksToThemAreReplacedWhereTheyAre) {
  std::ofstream(at("real.json")) << "old";
  fs::create_symlink("real.json", at("link.json"));
  WriteTarget regular = write_target(at("real.json"));
  EXPECT_EQ(regular.kind, WriteTarget::Kind::kRegular);
  WriteTarget link = write_target(at("link.json"));
  EXPECT_EQ(link.kind, WriteTarget::Kind::kRegular);
  EXPECT_EQ(link.path, at("real.json"));  // the rename goes over the target, not the link
  // A link to nothing yet: the new file is created where it points, as `>` does.
  fs::create_symlink("later.json", at("pending.json"));
  WriteTarget pending = write_target(at("pending.json"));
  EXPECT_EQ(pending.kind, WriteTarget::Kind::kMissing);
  EXPECT_EQ(pending.path, at("later.json"));
  EXPECT_EQ(write_target(at("new.json")).kind, WriteTarget::Kind::kMissing);
  EXPECT_EQ(write_target(dir_.string()).kind, WriteTarget::Kind::kDirectory);
}

TEST_F(WriteTargetTest, DevicesPipesAndDescriptorsAreWrittenThrough) {
  ASSERT_EQ(mkfifo(at("pipe").c_str(), 0600), 0);
  EXPECT_EQ(write_target(at("pipe")).kind, WriteTarget::Kind::kSpecial);
  EXPECT_EQ(write_target("/dev/null").kind, WriteTarget::Kind::kSpecial);
  WriteTarget out = write_target("/dev/stdout");
  EXPECT_EQ(out.kind, WriteTarget::Kind::kDescriptor);
  EXPECT_EQ(out.descriptor, 1);
  int fd = open(at("file").c_str(), O_WRONLY | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  WriteTarget named = write_target("/dev/fd/" + std::to_string(fd));
  EXPECT_EQ(named.kind, WriteTarget::Kind::kDescriptor);
  EXPECT_EQ(named.descriptor, fd);
  close(fd);
  // A closed descriptor is no descriptor: the name is looked at like any path.
  EXPECT_NE(write_target("/dev/fd/" + std::to_string(fd)).kind, WriteTarget::Kind::kDescriptor);
}

}  // namespace
}  // namespace footprint
