// The air-gap list: what a closed network must import, with sizes when a registry reported them.
#include <fmt/format.h>

#include "report/html.h"

namespace footprint {

std::string html_airgap(const std::vector<AirgapItem>& items) {
  size_t needed = 0;
  uint64_t known = 0;
  size_t unknown = 0;
  for (const AirgapItem& i : items) {
    if (!i.needed) continue;
    ++needed;
    if (i.bytes) {
      known += *i.bytes;
    } else {
      ++unknown;
    }
  }
  std::string out = fmt::format(
      "<section id=\"airgap\" data-items=\"{}\">\n<h2>Air-gap list</h2>\n<p>{} item{} to import",
      needed, needed, needed == 1 ? "" : "s");
  if (known) out += fmt::format(", {} bytes known", with_commas(known));
  if (unknown) {
    out += fmt::format(
        "; {} without a size (<code>footprint airgap --sizes</code> asks the registries)", unknown);
  }
  out += ".</p>\n";
  if (items.empty()) return out + "</section>\n";
  out +=
      "<div class=\"scroll\"><table class=\"data\">\n<thead><tr><th>item</th><th>name</th>"
      "<th>bytes</th><th>needed</th><th>source</th><th>note</th></tr></thead>\n<tbody>\n";
  for (const AirgapItem& i : items) {
    out += fmt::format(
        "<tr><td>{}</td><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td></tr>\n",
        html_escape(i.item), html_escape(i.name), i.bytes ? with_commas(*i.bytes) : "?",
        i.needed ? "yes" : "no", html_escape(i.source), html_escape(i.note));
  }
  return out + "</tbody></table></div>\n</section>\n";
}

}  // namespace footprint
