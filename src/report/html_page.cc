#include <fmt/format.h>

#include "report/html.h"

namespace footprint {

namespace {

// Colours from the Okabe-Ito palette, which stays distinct under the common colour-vision
// deficiencies; every colour also has a text or symbol twin on the page.
constexpr std::string_view kStyle = R"(
:root{--fc:#d55e00;--fo:#f0e442;--ex:#f2f2f2;--own:#0072b2;--ok:#009e73;--ink:#1a1a1a;--mute:#666}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);margin:0 auto;max-width:1200px;padding:1em 1.5em}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.25em;border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.8em}
nav a{margin-right:1em}code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em}
.muted{color:var(--mute)}.scroll{overflow:auto;max-width:100%;border:1px solid #ddd}
table{border-collapse:collapse}td,th{padding:2px 6px;vertical-align:top;text-align:left}
table.data td,table.data th{border-bottom:1px solid #e4e4e4}table.data th{background:#f7f7f7}
.badge{display:inline-block;min-width:5.5em;text-align:center;font-weight:700;font-size:.8em;padding:1px 4px;border-radius:3px;border:1px solid #0003}
.sev-critical{background:#7a0019;color:#fff}.sev-high{background:var(--fc);color:#fff}
.sev-medium{background:var(--fo);color:#000}.sev-low{background:#56b4e9;color:#000}.sev-info{background:#e8e8e8;color:#000}
.matrix th.ns{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font-weight:400;padding:4px 2px}
.matrix th.ns.system{font-weight:700}.matrix th.ns.own{font-weight:700;color:var(--own)}
.matrix td.cell{width:1.6em;min-width:1.6em;text-align:center;border:1px solid #fff;font-weight:700}
.matrix td.fail-closed,.swatch.fail-closed{background:#f9dccb;color:#a33a00}.matrix td.fail-open,.swatch.fail-open{background:#fbf7d0;color:#6b6000}
.matrix td.fail-closed.alarm,.swatch.fail-closed.alarm{background:var(--fc);color:#fff}.matrix td.fail-open.alarm,.swatch.fail-open.alarm{background:#e69f00;color:#000}
.matrix td.own,.swatch.own{background:#e6eef6;color:var(--own)}
.matrix td.excluded,.swatch.excluded{background:var(--ex);color:#999}.matrix td.col-system.alarm{outline:2px solid #7a0019;outline-offset:-2px}
.matrix td.col-own{outline:2px dashed var(--own);outline-offset:-2px}
.matrix td.hook{white-space:nowrap;position:sticky;left:0;background:#fff;z-index:1;max-width:28em;overflow:hidden;text-overflow:ellipsis}
.matrix tr.cluster td.note{color:var(--mute);font-style:italic;white-space:nowrap}.matrix td.note.alarm{color:#a33a00;font-weight:700}
.matrix tr.alarm td.hook{box-shadow:inset 4px 0 var(--fc)}
.legend span{margin-right:1.2em;white-space:nowrap}.swatch{display:inline-block;width:1.2em;text-align:center;font-weight:700;border:1px solid #0003}
svg text{font:12px system-ui,sans-serif}svg.graph{max-width:100%;height:auto}svg .edge{fill:none;stroke:#888;stroke-width:1.2}svg .edge.risky{stroke:var(--fc);stroke-width:3}
svg .node rect{fill:#fff;stroke:#555}svg .node.cluster rect{fill:#fff3e6;stroke:#a05000}svg .node.risk rect{fill:#fde4d6;stroke:var(--fc)}
svg .band{fill:#f6f6f6}svg .bar{fill:#0072b2}svg .bar.over{fill:var(--fc)}svg .bar.near{fill:var(--fo)}svg .limit{stroke:#000;stroke-dasharray:4 3}
.finding{border-left:4px solid #ccc;padding:.3em .8em;margin:.8em 0}.finding.critical{border-color:#7a0019}.finding.high{border-color:var(--fc)}
.finding.medium{border-color:var(--fo)}.finding.low{border-color:#56b4e9}.finding h3{font-size:1em;margin:.2em 0}
.filters{position:sticky;top:0;background:#fff;padding:.4em 0;border-bottom:1px solid #ddd;z-index:2}
.differs td{background:#fff3cd}.differs td:first-child{font-weight:700}
details>summary{cursor:pointer}
@media print{body{max-width:none;font-size:10pt;padding:0}.scroll{overflow:visible;border:0}.filters,nav{display:none}
 .finding{break-inside:avoid}h2{break-after:avoid}@page{size:A4;margin:12mm}}
)";

// Filters the findings by minimum severity, check and text, without a server.
constexpr std::string_view kScript = R"(
(function () {
  var order = {info: 0, low: 1, medium: 2, high: 3, critical: 4};
  var severity = document.getElementById('filter-severity');
  var check = document.getElementById('filter-check');
  var text = document.getElementById('filter-text');
  var count = document.getElementById('filter-count');
  if (!severity) return;
  function keep(f) {
    if (order[f.dataset.severity] - order[severity.value] >= 0) {
      if (check.value === '' || f.dataset.check === check.value) {
        var q = text.value.toLowerCase();
        return q === '' || f.textContent.toLowerCase().indexOf(q) !== -1;
      }
    }
    return false;
  }
  function apply() {
    var shown = 0;
    document.querySelectorAll('.finding').forEach(function (f) {
      f.hidden = !keep(f);
      if (!f.hidden) shown += 1;
    });
    count.textContent = String(shown);
  }
  severity.addEventListener('change', apply);
  check.addEventListener('change', apply);
  text.addEventListener('input', apply);
  apply();
})();
)";

}  // namespace

std::string html_prose(std::string_view text) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    size_t open = text.find('`', at);
    size_t close = open == std::string_view::npos ? open : text.find('`', open + 1);
    if (close == std::string_view::npos) break;
    out += html_escape(text.substr(at, open - at));
    out += "<code>" + html_escape(text.substr(open + 1, close - open - 1)) + "</code>";
    at = close + 1;
  }
  return out + html_escape(text.substr(at));
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string html_badge(Severity s) {
  std::string name(severity_name(s));
  std::string upper = name;
  for (char& c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return fmt::format("<span class=\"badge sev-{}\">{}</span>", name, upper);
}

std::string html_page_start(std::string_view title) {
  // The Content-Security-Policy forbids every fetch, so even a bug cannot make the page reach
  // the network; the inline style and script are allowed by their place, not by a source.
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\"/>\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
      html_escape(title), kStyle);
}

std::string html_page_end() {
  return fmt::format("<script>{}</script>\n</body>\n</html>\n", kScript);
}

std::string html_section(const Section& s) {
  std::string out =
      fmt::format("<details class=\"section\" id=\"details-{}\">\n<summary>{}</summary>\n",
                  html_escape(s.id), html_escape(s.title));
  for (const Block& b : s.blocks) {
    for (const std::string& line : b.lines)
      out += "<p>" + html_escape(line) + "</p>\n";
    const std::optional<Table>& has_table = b.table;
    if (!has_table) continue;
    const Table& table = *has_table;
    out += "<div class=\"scroll\"><table class=\"data\">\n<thead><tr>";
    for (const std::string& h : table.header)
      out += "<th>" + html_escape(h) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    for (const auto& row : table.rows) {
      out += "<tr>";
      for (const std::string& cell : row)
        out += "<td>" + html_escape(cell) + "</td>";
      out += "</tr>\n";
    }
    out += "</tbody></table></div>\n";
  }
  return out + "</details>\n";
}

}  // namespace footprint
