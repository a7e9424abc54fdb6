// The output formats and their names: one table, from which every command's --format option takes
// its choices and its help (cli/common.h add_format_option).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace footprint {

// kList, one image reference per line, is the images command's own.
enum class Format : uint8_t { kText, kJson, kMarkdown, kSarif, kHtml, kGithub, kJunit, kList };

struct FormatName {
  Format format;
  std::string_view name;
  std::string_view alias;  // another name for it, or empty
  std::string_view note;   // what the help says of it, or empty
};

inline constexpr FormatName kFormatNames[] = {
    {Format::kText, "text", "", ""},
    {Format::kJson, "json", "", ""},
    {Format::kMarkdown, "markdown", "md", ""},
    {Format::kSarif, "sarif", "", ""},
    {Format::kHtml, "html", "", ""},
    {Format::kGithub, "github", "", "workflow commands that annotate a pull request"},
    {Format::kJunit, "junit", "", ""},
    {Format::kList, "list", "", "one reference per line, for mirroring tools"},
};

const FormatName& name_of(Format format);
// The format a name or alias stands for.
std::optional<Format> parse_format(std::string_view name);

}  // namespace footprint
