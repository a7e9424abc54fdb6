// CRD sizes as bars against the three limits an install meets: the 262,144-byte annotation
// client-side apply writes, etcd's 1.5 MiB request and the API server's 3 MiB body. Bar
// lengths are proportional to the bytes on one linear scale, so bars compare honestly.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/check.h"
#include "analysis/context.h"
#include "analysis/models/crd_models.h"
#include "report/html.h"
#include "report/labels.h"

namespace footprint {

namespace {

constexpr int kBarWidth = 300;  // pixels for the scale's full length
constexpr int kBarHeight = 16;

struct Limit {
  uint64_t bytes;
  std::string_view name;
  std::string_view measure;
};

constexpr Limit kLimits[] = {
    {kAnnotationLimit, "client-side apply", "last-applied annotation"},
    {kEtcdRequestLimit, "etcd", "JSON stored"},
    {kRequestBodyLimit, "API request", "request body"},
};

constexpr std::string_view kMinus = "\u2212";  // a minus sign, not a hyphen

}  // namespace

std::string html_crd_sizes(const Context& ctx) {
  struct Crd {
    const Object* object;
    const ApplySizes* sizes;
  };
  std::vector<Crd> crds;
  for (const ObjectSize& s : ctx.sizes) {
    if (s.object->kind != "CustomResourceDefinition") continue;
    if (const std::optional<ApplySizes>& sizes = s.sizes) crds.push_back({s.object, &*sizes});
  }
  std::stable_sort(crds.begin(), crds.end(), [](const Crd& a, const Crd& b) {
    return a.sizes->annotation_bytes > b.sizes->annotation_bytes;
  });
  std::string out =
      fmt::format("<section id=\"crd-sizes\" data-crds=\"{}\">\n<h2>CRD sizes</h2>\n", crds.size());
  if (crds.empty())
    return out + "<p>The bundle has no CustomResourceDefinitions.</p>\n</section>\n";
  // The scale reaches a little past the largest CRD and at least past the first limit, so the
  // limit every large CRD meets first is always drawn.
  uint64_t largest = crds.front().sizes->annotation_bytes;
  uint64_t scale =
      std::max<uint64_t>(largest + largest / 10, kAnnotationLimit + kAnnotationLimit / 4);
  auto px = [&](uint64_t bytes) {
    return static_cast<double>(bytes) * kBarWidth / static_cast<double>(scale);
  };
  out += fmt::format(
      "<p>{} CRDs, largest first. Each bar is the <b>last-applied annotation</b> client-side "
      "apply writes (the first limit a large CRD meets); dashed lines mark the limits within the "
      "scale (0 to {} bytes). Headroom is limit minus size: negative means the install fails on "
      "that path.</p>\n",
      crds.size(), with_commas(scale));
  std::string lines;
  std::string legend;
  for (const Limit& l : kLimits) {
    if (l.bytes > scale) {
      legend += fmt::format("<li>{}: {} bytes of {} (beyond the scale)</li>", l.name,
                            with_commas(l.bytes), l.measure);
      continue;
    }
    lines +=
        fmt::format("<line class=\"limit\" x1=\"{0:.1f}\" y1=\"0\" x2=\"{0:.1f}\" y2=\"{1}\"/>",
                    px(l.bytes), kBarHeight + 4);
    legend += fmt::format("<li>{}: {} bytes of {} (dashed line)</li>", l.name, with_commas(l.bytes),
                          l.measure);
  }
  out += "<ul class=\"muted\">" + legend + "</ul>\n";
  out +=
      "<div class=\"scroll\"><table class=\"data bars\">\n<thead><tr><th>CRD</th><th>size</th>"
      "<th>annotation bytes</th><th>headroom: apply</th><th>etcd</th><th>request</th></tr>"
      "</thead>\n<tbody>\n";
  for (const Crd& crd : crds) {
    const ApplySizes& a = *crd.sizes;
    int64_t apply = headroom(kAnnotationLimit, a.annotation_bytes);
    int64_t etcd = headroom(kEtcdRequestLimit, a.json_bytes);
    int64_t request = headroom(kRequestBodyLimit, a.request_bytes);
    bool over = apply < 0 || etcd < 0 || request < 0;
    bool near = near_limit(a.annotation_bytes, kAnnotationLimit) ||
                near_limit(a.json_bytes, kEtcdRequestLimit) ||
                near_limit(a.request_bytes, kRequestBodyLimit);
    std::string status = over ? "over" : near ? "near" : "";
    std::string mark = over ? " \u2716 over a limit" : near ? " \u25b2 near a limit" : "";
    out += fmt::format(
        "<tr data-crd=\"{0}\" data-bytes=\"{1}\"><td><code>{0}</code>{2}</td><td><svg "
        "xmlns=\"http://www.w3.org/2000/svg\" width=\"{3}\" height=\"{4}\" role=\"img\" "
        "aria-label=\"{1} bytes\"><rect class=\"bar {5}\" x=\"0\" y=\"2\" width=\"{6:.2f}\" "
        "height=\"{7}\"/>{8}</svg></td><td class=\"mono\">{9}</td><td class=\"mono\">{10}</td>"
        "<td class=\"mono\">{11}</td><td class=\"mono\">{12}</td></tr>\n",
        html_escape(crd.object->name), a.annotation_bytes, mark, kBarWidth + 2, kBarHeight + 4,
        status, px(a.annotation_bytes), kBarHeight, lines, with_commas(a.annotation_bytes),
        signed_commas(apply, kMinus), signed_commas(etcd, kMinus), signed_commas(request, kMinus));
  }
  return out + "</tbody></table></div>\n</section>\n";
}

}  // namespace footprint
