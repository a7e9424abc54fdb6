#include <fmt/format.h>

#include "report/report.h"

namespace footprint {

Section invalid_documents_section(const std::vector<LoadError>& invalid) {
  Section s;
  s.id = "invalidDocuments";
  s.title = "Documents that are not valid objects";
  Block b;
  // A document can have several problems: each is a row, and the documents are counted once.
  size_t documents = count_documents(invalid);
  bool one = documents == 1;
  std::string problems =
      invalid.size() == documents ? "" : fmt::format(" ({} problems)", invalid.size());
  b.lines.push_back(fmt::format(
      "{} of the input could not be read as {}{} and {} left out of everything below; applying "
      "the input fails on {}. footprint exits 2.",
      one ? "One document" : fmt::format("{} documents", documents),
      one ? "a Kubernetes object" : "Kubernetes objects", problems, one ? "is" : "are",
      one ? "it" : "them"));
  Table t;
  t.header = {"where", "problem"};
  Json list = Json::array();
  for (const LoadError& e : invalid) {
    std::string where = e.position.line
                            ? fmt::format("{}:{}:{}", e.file, e.position.line, e.position.column)
                            : e.file;
    t.rows.push_back({where, e.message});
    Json entry = {{"file", e.file},
                  {"line", e.position.line},
                  {"column", e.position.column},
                  {"message", e.message}};
    if (e.document.line) {
      entry["document"] = {{"line", e.document.line}, {"column", e.document.column}};
    }
    list.push_back(std::move(entry));
  }
  b.table = std::move(t);
  s.blocks.push_back(std::move(b));
  s.json = std::move(list);
  return s;
}

}  // namespace footprint
