// What the input holds that footprint does not analyse, and why: a file left out of a folder, a
// document that holds only comments, an object set aside (a Helm test hook, an ApplicationSet).
// Every one is counted and listed in the report; nothing is skipped silently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace footprint {

struct Skipped {
  enum class Unit : uint8_t { kFile, kFolder, kDocument, kObject };
  Unit unit = Unit::kFile;
  std::string path;   // the file or folder (for a document or object, the file it is in)
  uint32_t line = 0;  // where the document or object starts; 0 for a file or folder
  std::string what;   // the object ("ApplicationSet argocd/apps"); empty for files and documents
  // Why, in words shared by every item of one cause, so that the summary can group them:
  // "not .yaml, .yml or .json".
  std::string reason;
};

// "file", "folder", "document" or "object".
std::string_view unit_name(Skipped::Unit unit);

// "3 files, 1 document (2 not .yaml, .yml or .json; 1 only comments; ...)": counted per unit,
// then per reason in order of first appearance.
std::string skipped_summary(const std::vector<Skipped>& skipped);

}  // namespace footprint
