// --format html: one self-contained page (inline CSS, SVG and a little JavaScript; no request
// leaves it) that shows the audit's summary and the pictures the tables cannot: which
// namespaces each webhook reaches, who holds which rights, and how close CRDs come to the
// API server's limits. The page is XHTML-compatible HTML5: every element is closed, so
// any HTML or XML parser reads it the same way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/commands/airgap.h"
#include "report/report.h"

namespace footprint {

std::string render_html(const Report& report);
std::string render_comparison_html(const Comparison& comparison);

// Text for an HTML element or attribute value: &, <, >, " and ' as character references.
std::string html_escape(std::string_view text);
// Prose whose `code spans` (commands, names, as the text formats write them) become <code>
// elements; the rest as html_escape gives it, and a backtick without its pair stays one.
std::string html_prose(std::string_view text);

// The severity as a coloured badge whose text names it, so the page reads without colour.
std::string html_badge(Severity s);

// The page's parts, one file each; each returns an HTML fragment (a <section>).
std::string html_blast_radius(const Context& context);
std::string html_rbac_graph(const Context& context);
std::string html_crd_sizes(const Context& context);
std::string html_airgap(const std::vector<AirgapItem>& items);
// A report Section's blocks as paragraphs and tables, for the page's details.
std::string html_section(const Section& section);

// <!DOCTYPE html> up to <body>, with the page's style; and the closing script and tags.
std::string html_page_start(std::string_view title);
std::string html_page_end();

}  // namespace footprint
