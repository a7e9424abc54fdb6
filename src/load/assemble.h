// Turns the parsed documents of one chunk of a file into RawObjects, so that each chunk can be
// assembled on its own core; loader.cc joins the chunks in input order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "load/loader.h"

namespace footprint {

struct ChunkObjects {
  std::vector<RawObject> objects;  // in document order
  std::vector<LoadError> errors;   // errors of single documents, in document order
  // Helm test hooks, left out of the objects (load/helm_tests.h): one note each.
  std::vector<std::string> notes;
  std::vector<Skipped> skipped;  // Helm test hooks and documents of comments only
  // Owners of the trees the objects point into, each once.
  std::vector<std::shared_ptr<const yaml::Tree>> trees;
};

// Adds the objects of `documents`, parsed from `text` (the whole of file `file`, named `name`),
// to `out`: a List's items become objects, empty documents are skipped, Helm test hooks are set
// aside, and what is not a valid object is an error.
void assemble_documents(std::vector<yaml::Document> documents, uint32_t file,
                        const std::string& name, std::string_view text, uint64_t max_document_bytes,
                        ChunkObjects& out);

}  // namespace footprint
