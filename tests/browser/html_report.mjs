// Opens footprint's HTML pages in Debian's chromium (headless, through puppeteer-core) and checks
// them against numbers this script reads from the input YAML itself: no console errors, no
// request besides the page's own file, the blast-radius matrix cell by cell (namespaceSelector
// evaluated here, per the LabelSelector rules of
// staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go and pkg/labels/selector.go), its
// highlighted cells against those the JSON report's findings name (the picture says what the
// text says), CRD bars proportional to their sizes, the findings filter, the RBAC graph, and a
// full-page screenshot that is not blank; the compare page, and the diff page against diff's JSON. Exits 77 (skipped) when chromium or the npm packages
// are missing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const source = process.env.FOOTPRINT_SOURCE_DIR;
const build = process.env.FOOTPRINT_BUILD_DIR;
const footprint = process.env.FOOTPRINT;
const chromium = process.env.FOOTPRINT_CHROMIUM || '/usr/bin/chromium';
// As in tests/cli/common.inc: CI installs chromium and puppeteer, so there a skip is a failure.
const skip = (why) => {
  if (process.env.CI === 'true') {
    console.error(`FAIL: would skip under CI: ${why}`);
    process.exit(1);
  }
  console.log(`SKIP: ${why}`);
  process.exit(77);
};
if (!source || !build || !footprint) {
  console.error('set FOOTPRINT, FOOTPRINT_SOURCE_DIR and FOOTPRINT_BUILD_DIR');
  process.exit(2);
}
if (!fs.existsSync(chromium)) skip(`no chromium at ${chromium} (apt-get install chromium)`);
const tools = createRequire(path.join(source, '.tools', 'node_modules', 'x.js'));
let puppeteer;
let YAML;
try {
  puppeteer = tools('puppeteer-core');
  YAML = tools('yaml');
} catch {
  skip('puppeteer-core or yaml missing from .tools/node_modules (run scripts/install-deps)');
}

const out = path.join(build, 'browser');
fs.mkdirSync(out, { recursive: true });
const corpus = path.join(source, '..', 'shared', 'corpus');
let failures = 0;
const check = (ok, what) => {
  if (!ok) {
    failures += 1;
    console.log(`  FAIL ${what}`);
  }
};

function loadYaml(file) {
  return YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'), { uniqueKeys: false })
    .map((d) => d.toJS({ maxAliasCount: -1 }))
    .filter((d) => d && typeof d === 'object');
}

// Kubernetes label selector semantics: matchLabels and every expression must hold; NotIn and
// DoesNotExist hold for objects without the key; an absent or empty selector matches all.
function selectorMatches(selector, labels) {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels || {})) {
    if (labels[k] !== String(v)) return false;
  }
  for (const e of selector.matchExpressions || []) {
    const has = Object.hasOwn(labels, e.key);
    const values = (e.values || []).map(String);
    const ok = {
      In: has && values.includes(labels[e.key]),
      NotIn: !has || !values.includes(labels[e.key]),
      Exists: has,
      DoesNotExist: !has,
    }[e.operator];
    if (!ok) return false;
  }
  return true;
}

function expectations(docs, releaseNamespace) {
  const webhooks = [];
  for (const d of docs) {
    if (!/^(Mutating|Validating)WebhookConfiguration$/.test(d.kind)) continue;
    for (const w of d.webhooks || []) webhooks.push(w);
  }
  const namespaceLabels = {};
  for (const d of docs) {
    if (d.kind === 'Namespace') namespaceLabels[d.metadata.name] = d.metadata.labels || {};
  }
  const crds = new Map();  // the last definition of each name is the one applied
  for (const d of docs) {
    if (d.kind === 'CustomResourceDefinition') crds.set(d.metadata.name, d);
  }
  const secretValues = [];
  for (const d of docs) {
    if (d.kind !== 'Secret') continue;
    for (const v of [...Object.values(d.data || {}), ...Object.values(d.stringData || {})]) {
      if (typeof v === 'string' && v.length >= 8) secretValues.push(v);
    }
  }
  const images = new Set();
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'containers' || key === 'initContainers') && Array.isArray(value)) {
        for (const c of value) if (c && typeof c.image === 'string' && c.image) images.add(c.image);
      }
      walk(value);
    }
  };
  for (const d of docs) if (d.kind !== 'Secret' && d.kind !== 'CustomResourceDefinition') walk(d);
  return { webhooks, namespaceLabels, crds, secretValues, releaseNamespace, images };
}

async function openPage(browser, file) {
  const page = await browser.newPage();
  const errors = [];
  const requests = [];
  const url = pathToFileURL(file).href;
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    if (r.url() === url) return r.continue();
    requests.push(r.url());
    return r.abort();
  });
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, requests };
}

// The screenshot, decoded by the browser itself: a blank page has (almost) one colour.
async function screenshotIsNotBlank(browser, png) {
  const page = await browser.newPage();
  const data = fs.readFileSync(png).toString('base64');
  await page.setContent('<canvas id="c"></canvas>');
  const stats = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.getElementById('c');
    c.width = Math.min(img.width, 1280);
    c.height = Math.min(img.height, 4000);
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let ink = 0;
    for (let i = 0; i < px.length; i += 4 * 7) {
      colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
      if (px[i] + px[i + 1] + px[i + 2] < 600) ink += 1;
    }
    return { width: img.width, height: img.height, colours: colours.size, ink };
  }, data);
  await page.close();
  return stats;
}

async function auditCase(browser, name, input, namespace, namespacesFile) {
  console.log(`${name}: ${input}`);
  const file = path.join(out, `${name}.html`);
  const extra = namespacesFile ? ['--namespaces', namespacesFile] : [];
  // Run from the source tree with an absolute input: the page names it relative to there.
  const run = (args) => {
    try {
      return execFileSync(footprint, ['audit', input, '-n', namespace, ...args, ...extra],
        { cwd: source, maxBuffer: 64 << 20 }).toString();
    } catch (e) {
      if (e.status !== 1) throw e;  // 1: findings reached --fail-on; the output is written
      return e.stdout.toString();
    }
  };
  run(['--format', 'html', '-o', file]);
  const report = JSON.parse(run(['--format', 'json']));
  const html = fs.readFileSync(file, 'utf8');
  const bytes = fs.statSync(file).size;
  console.log(`  page: ${bytes} bytes`);
  const want = expectations(loadYaml(input), namespace);
  if (namespacesFile) {
    for (const ns of loadYaml(namespacesFile)[0].items) {
      want.namespaceLabels[ns.metadata.name] = ns.metadata.labels || {};
    }
  }
  const { page, errors, requests } = await openPage(browser, file);
  check(errors.length === 0, `console errors: ${errors.join(' | ')}`);
  check(requests.length === 0, `network requests: ${requests.join(', ')}`);
  const title = await page.title();
  check(title === `footprint audit: ${path.relative(source, input)}`, `page title ${title}`);

  // Blast radius: one row per webhook, cells as the selector and failurePolicy say.
  const matrix = await page.evaluate(() => {
    const s = document.getElementById('blast-radius');
    const columns = [...s.querySelectorAll('th.ns')].map((th) => ({
      ns: th.dataset.ns,
      cls: th.className,
    }));
    const rows = [...s.querySelectorAll('tbody tr')].map((tr) => ({
      name: tr.dataset.name,
      webhook: tr.dataset.kind === 'webhook',
      severity: tr.dataset.severity,
      alarm: tr.classList.contains('alarm'),
      namespaced: tr.classList.contains('namespaced'),
      pod: tr.dataset.podCreation === '1',
      cells: [...tr.querySelectorAll('td.cell')].map((td) => ({
        ns: td.dataset.ns,
        state: td.dataset.state,
        alarm: td.dataset.alarm === '1',
        classes: td.className,
        symbol: td.textContent,
        background: getComputedStyle(td).backgroundColor,
      })),
    }));
    // Column labels side by side must not overlap, however many namespaces there are.
    const boxes = [...s.querySelectorAll('th.ns')].map((th) => th.getBoundingClientRect());
    let overlaps = 0;
    for (let i = 1; i < boxes.length; i += 1) {
      if (boxes[i].left - boxes[i - 1].right < -0.5) overlaps += 1;
    }
    return {
      webhooks: Number(s.dataset.webhooks),
      policies: Number(s.dataset.policies),
      alarmRows: Number(s.dataset.alarmRows),
      columns,
      rows,
      overlaps,
    };
  });
  check(matrix.overlaps === 0, `${matrix.overlaps} namespace labels overlap`);
  check(matrix.webhooks === want.webhooks.length,
    `webhook count ${matrix.webhooks}, YAML has ${want.webhooks.length}`);
  check(matrix.rows.length === want.webhooks.length + matrix.policies,
    `matrix rows ${matrix.rows.length}`);
  const columnNames = matrix.columns.map((c) => c.ns);
  check(columnNames.includes('kube-system') && columnNames.includes(namespace),
    `columns include kube-system and ${namespace}: ${columnNames}`);
  check(/system/.test(matrix.columns.find((c) => c.ns === 'kube-system')?.cls || ''),
    'kube-system column stands out');
  check(/own/.test(matrix.columns.find((c) => c.ns === namespace)?.cls || ''),
    `${namespace} column stands out`);
  const unmatched = [...want.webhooks];
  let cellsChecked = 0;
  // A cell is drawn when the selector sends the request; when it is drawn as fail-closed or
  // fail-open, that is the webhook's failurePolicy ("own": only the install's own resources or
  // namespace, whatever the policy).
  const symbols = new Map();  // state and highlight -> symbol and colour: each pair one twin
  for (const row of matrix.rows.filter((r) => r.webhook)) {
    const i = unmatched.findIndex((w) => w.name === row.name);
    check(i >= 0, `row ${row.name} is a webhook of the YAML`);
    if (i < 0) continue;
    const [w] = unmatched.splice(i, 1);
    if (!row.namespaced) continue;
    check(row.cells.length === columnNames.length, `${row.name}: a cell per namespace`);
    const policy = (w.failurePolicy || 'Fail') !== 'Ignore' ? 'fail-closed' : 'fail-open';
    for (const cell of row.cells) {
      const labels = {
        ...(want.namespaceLabels[cell.ns] || {}),
        'kubernetes.io/metadata.name': cell.ns,
      };
      const hit = selectorMatches(w.namespaceSelector, labels);
      const allowed = hit ? [policy, 'own'] : ['excluded'];
      check(allowed.includes(cell.state),
        `${row.name} in ${cell.ns}: ${cell.state}, expected ${allowed.join(' or ')}`);
      check(cell.symbol.length > 0, `${row.name} in ${cell.ns}: the colour has a symbol twin`);
      check(cell.classes.split(' ').includes(cell.state) && cell.classes.includes('alarm') === cell.alarm,
        `${row.name} in ${cell.ns}: classes ${cell.classes} say state ${cell.state}, alarm ${cell.alarm}`);
      const key = `${cell.state}${cell.alarm ? ' alarm' : ''}`;
      const twin = `${cell.symbol} ${cell.background}`;
      check((symbols.get(key) ?? twin) === twin, `${key} drawn both ${symbols.get(key)} and ${twin}`);
      symbols.set(key, twin);
      cellsChecked += 1;
    }
  }
  const twins = [...symbols.values()];
  check(new Set(twins.map((t) => t.split(' ')[0])).size === twins.length,
    `each state has its own symbol: ${[...symbols].join(', ')}`);
  // Worst first, as the findings.
  const rank = ['', 'info', 'low', 'medium', 'high', 'critical'];
  const ranks = matrix.rows.map((r) => rank.indexOf(r.severity || ''));
  check(ranks.every((r, i) => i === 0 || r <= ranks[i - 1]), `rows not worst first: ${ranks}`);
  // The picture says what the findings say: the highlighted cells are exactly the webhooks and
  // namespaces of the high and critical webhook findings, read from the JSON report. For
  // webhook-kube-system the namespace is the one of each component request: kube-node-lease when
  // named, none for the cluster-scoped nodes/status, else kube-system.
  const fromFindings = new Set();
  for (const f of report.findings) {
    if (f.severity !== 'high' && f.severity !== 'critical') continue;
    const hooks = f.affects?.webhooks || [];
    let where = [];
    if (f.check === 'webhook-fail-closed' || f.check === 'webhook-intercepts-shared-resources') {
      where = f.affects["other teams' namespaces"] || [];
    } else if (f.check === 'webhook-kube-system') {
      for (const r of f.affects['kube-system requests'] || []) {
        if (r.startsWith('nodes/')) continue;
        const ns = r.includes(' in kube-node-lease') ? 'kube-node-lease' : 'kube-system';
        if (!where.includes(ns)) where.push(ns);
      }
    }
    for (const h of hooks) for (const ns of where) fromFindings.add(`${h} in ${ns}`);
  }
  const onPage = new Set();
  for (const row of matrix.rows) {
    for (const cell of row.cells) if (cell.alarm) onPage.add(`${row.name} in ${cell.ns}`);
    check(row.alarm === (row.cells.some((c) => c.alarm) || (!row.namespaced && rank.indexOf(row.severity) >= 4)),
      `${row.name}: row highlighted ${row.alarm}`);
  }
  const missing = [...fromFindings].filter((c) => !onPage.has(c));
  const extraCells = [...onPage].filter((c) => !fromFindings.has(c));
  check(missing.length === 0, `findings name cells the page does not highlight: ${missing.slice(0, 5)}`);
  check(extraCells.length === 0, `page highlights cells no finding names: ${extraCells.slice(0, 5)}`);
  check(matrix.alarmRows === matrix.rows.filter((r) => r.alarm).length, 'highlighted row count');
  console.log(`  matrix: ${matrix.rows.length} rows x ${columnNames.length} namespaces, ${cellsChecked} cells checked, ` +
    `${onPage.size} highlighted as the findings say, in ${matrix.alarmRows} rows`);

  // CRD bars: one per CRD, widths proportional to the bytes, sizes near the JSON's length.
  const bars = await page.$$eval('#crd-sizes tr[data-crd]', (trs) =>
    trs.map((tr) => ({
      name: tr.dataset.crd,
      bytes: Number(tr.dataset.bytes),
      width: Number(tr.querySelector('rect.bar').getAttribute('width')),
      shown: tr.querySelector('rect.bar').getBoundingClientRect().width,
    })));
  check(bars.length === want.crds.size, `CRD bars ${bars.length}, YAML has ${want.crds.size}`);
  if (bars.length) {
    const ratio = bars[0].width / bars[0].bytes;
    for (const b of bars) {
      check(Math.abs(b.width - b.bytes * ratio) <= 0.02, `${b.name}: bar width ${b.width} not proportional`);
      check(Math.abs(b.shown - b.width) <= 1, `${b.name}: drawn ${b.shown}px for width ${b.width}`);
      // The last-applied annotation holds the object's JSON (plus the annotation key); Go's
      // encoder escapes <, > and & that JSON.stringify keeps, hence the tolerance above.
      const json = JSON.stringify(want.crds.get(b.name)).length;
      check(b.bytes >= json && b.bytes <= json * 1.05 + 200, `${b.name}: ${b.bytes} bytes vs JSON ${json}`);
    }
  }

  // Findings: the filter shows exactly the findings of the chosen severity and worse.
  const findings = await page.evaluate(() => {
    const total = Number(document.getElementById('finding-counts').dataset.total);
    const all = document.querySelectorAll('.finding').length;
    const links = [...document.querySelectorAll('#summary a[href^="#finding-"]')];
    const broken = links.filter((a) => !document.getElementById(a.getAttribute('href').slice(1)));
    const select = document.getElementById('filter-severity');
    select.value = 'high';
    select.dispatchEvent(new Event('change'));
    const visible = [...document.querySelectorAll('.finding')].filter((f) => !f.hidden).length;
    const highOrWorse = document.querySelectorAll(
      '.finding[data-severity="high"], .finding[data-severity="critical"]').length;
    const shown = Number(document.getElementById('filter-count').textContent);
    select.value = 'info';
    select.dispatchEvent(new Event('change'));
    return { total, all, links: links.length, broken: broken.length, visible, highOrWorse, shown };
  });
  check(findings.all === findings.total, `findings listed ${findings.all} of ${findings.total}`);
  check(findings.broken === 0, `summary links without a target: ${findings.broken}`);
  check(findings.visible === findings.highOrWorse && findings.shown === findings.visible,
    `filter high: ${findings.visible} visible, ${findings.highOrWorse} high or worse, counter ${findings.shown}`);
  console.log(`  findings: ${findings.total}, ${findings.highOrWorse} high or worse`);

  // RBAC: every drawn path ends in a risky right; the other bindings are one line per subject.
  const rbac = await page.evaluate(() => {
    const s = document.getElementById('rbac');
    return {
      bindings: Number(s.dataset.bindings),
      drawn: [...s.querySelectorAll('g[data-binding]')].map((g) => g.dataset.risky),
      quiet: [...s.querySelectorAll('g.quiet')].map((g) => g.dataset.subject),
    };
  });
  check(rbac.drawn.every((r) => r === '1'), 'a drawn RBAC path without a risky right');
  check(new Set(rbac.quiet).size === rbac.quiet.length, 'one line per subject without risky rights');
  check(rbac.drawn.length === 0 || rbac.drawn.length <= rbac.bindings, 'RBAC bindings drawn');
  console.log(`  rbac: ${rbac.bindings} bindings, ${rbac.drawn.length} drawn, ${rbac.quiet.length} collapsed lines`);

  // Air gap: every container image of the YAML is on the import list.
  const imported = await page.$$eval('#airgap tbody tr td:nth-child(2)', (tds) =>
    tds.map((td) => td.textContent));
  for (const image of want.images) {
    // A digest pins the image and the tag beside it is dropped; no tag at all means :latest.
    const [name, digest] = image.split('@');
    const full = digest ? `${name.replace(/:[^/]+$/, '')}@${digest}`
      : /:[^/]+$/.test(name) ? name : `${name}:latest`;
    check(imported.some((name) => name.endsWith(full)), `image ${image} on the air-gap list`);
  }
  console.log(`  air gap: ${imported.length} items, ${want.images.size} container images in the YAML`);

  const text = await page.evaluate(() => document.documentElement.outerHTML);
  for (const v of want.secretValues) check(!text.includes(v), 'a Secret value appears in the page');

  const png = path.join(out, `${name}.png`);
  await page.screenshot({ path: png, fullPage: true });
  // The README's picture (docs/html-report.png): the summary, the matrix and the RBAC graph.
  if (name === 'field-global') {
    await page.setViewport({ width: 1024, height: 900 });
    const clip = await page.evaluate(() => {
      const top = document.getElementById('summary').getBoundingClientRect();
      const end = document.getElementById('rbac').getBoundingClientRect();
      return { x: top.left - 8, y: top.top + window.scrollY - 8, width: top.width + 16,
        height: end.bottom - top.top + 16 };
    });
    await page.screenshot({ path: path.join(out, 'readme.png'), clip });
  }
  const shot = await screenshotIsNotBlank(browser, png);
  check(shot.colours >= 8 && shot.ink > 1000,
    `screenshot ${png} looks blank: ${shot.colours} colours, ${shot.ink} dark samples`);
  console.log(`  screenshot: ${png} ${shot.width}x${shot.height}, ${shot.colours} colours`);
  await page.close();
  return { name, bytes, findings: findings.total, alarmRows: matrix.alarmRows,
    podAlarm: matrix.rows.filter((r) => r.alarm).every((r) => r.pod) };
}

async function compareCase(browser) {
  console.log('compare: field report global vs restricted');
  const data = path.join(source, 'tests', 'data', 'field-report');
  const file = path.join(out, 'compare.html');
  execFileSync(footprint, ['compare', `global=${path.join(data, 'global.yaml')}`,
    `restricted=${path.join(data, 'restricted.yaml')}`, '-n', 'dynamo-system', '--format', 'html',
    '-o', file]);
  const { page, errors, requests } = await openPage(browser, file);
  check(errors.length === 0, `console errors: ${errors.join(' | ')}`);
  check(requests.length === 0, `network requests: ${requests.join(', ')}`);
  const rows = await page.$$eval('#install-modes tbody tr', (trs) =>
    trs.map((tr) => ({
      differs: tr.classList.contains('differs'),
      values: [...tr.querySelectorAll('td')].slice(2).map((td) => td.textContent),
    })));
  check(rows.length > 0, 'compare has rows');
  // The decision table leads the page. global's pod webhook has no namespaceSelector, so it sees
  // pod creation in other teams' namespaces; restricted pins it to the operator's target
  // namespace (tests/data/field-report/README.md), so it reaches no other team.
  const firstSection = await page.$eval('main section, body section', (s) => s.id);
  check(firstSection === 'decision', `first section is ${firstSection}, not the decision table`);
  const pod = await page.$$eval('#decision tr[data-row="pod-creation"] td', (tds) =>
    tds.map((td) => td.firstChild ? td.firstChild.textContent : ''));
  check(pod.length === 3 && pod[1].startsWith('yes') && pod[2].startsWith('no'),
    `pod-creation row: ${pod.join(' | ')}`);
  // A row is highlighted exactly when the modes' values differ.
  for (const r of rows) {
    check(r.differs === new Set(r.values).size > 1, `row ${r.values} highlighted=${r.differs}`);
  }
  // global has the CRDs, restricted none (upgradeCRD=false): some row must differ.
  check(rows.some((r) => r.differs), 'some row differs between global and restricted');
  await page.screenshot({ path: path.join(out, 'compare.png'), fullPage: true });
  await page.close();
}

// The upgrade review's page over the field report's two modes taken as OLD and NEW: the changes
// render top to bottom in the JSON's order (worst first), each with its badge and, where the
// JSON has one, its fix.
async function diffCase(browser) {
  console.log('diff: field report global -> restricted');
  const data = path.join(source, 'tests', 'data', 'field-report');
  const sides = [path.join(data, 'global.yaml'), path.join(data, 'restricted.yaml')];
  const file = path.join(out, 'diff.html');
  const review = JSON.parse(execFileSync(footprint, ['diff', ...sides, '-n', 'dynamo-system',
    '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  execFileSync(footprint, ['diff', ...sides, '-n', 'dynamo-system', '--format', 'html', '-o', file]);
  const { page, errors, requests } = await openPage(browser, file);
  check(errors.length === 0, `console errors: ${errors.join(' | ')}`);
  check(requests.length === 0, `network requests: ${requests.join(', ')}`);
  const shown = await page.$$eval('article.change', (articles) => articles.map((a) => ({
    severity: a.dataset.severity,
    area: a.dataset.area,
    subject: a.querySelector('.subject').textContent,
    change: a.querySelector('.what').textContent,
    badge: a.querySelector('.badge').textContent,
    fix: [...a.querySelectorAll('p')].map((p) => p.textContent).filter((t) => t.startsWith('Fix: ')),
    top: a.getBoundingClientRect().top,
    height: a.getBoundingClientRect().height,
  })));
  check(review.changes.length > 0, 'the modes differ, so the review has changes');
  check(shown.length === review.changes.length,
    `${shown.length} changes on the page, ${review.changes.length} in the JSON`);
  review.changes.forEach((c, i) => {
    const s = shown[i] || {};
    check(s.severity === c.severity && s.area === c.area && s.subject === c.subject &&
      s.change === c.change, `change ${i + 1}: page ${JSON.stringify(s)}, JSON ${JSON.stringify(c)}`);
    check(s.badge === c.severity.toUpperCase(), `change ${i + 1} badge ${s.badge}`);
    check(JSON.stringify(s.fix) === JSON.stringify(c.fix ? [`Fix: ${c.fix}`] : []),
      `change ${i + 1} fix ${s.fix}`);
    check(s.height > 0 && (i === 0 || s.top > shown[i - 1].top), `change ${i + 1} drawn below the previous`);
  });
  await page.screenshot({ path: path.join(out, 'diff.png'), fullPage: true });
  const stats = await screenshotIsNotBlank(browser, path.join(out, 'diff.png'));
  check(stats.colours > 3 && stats.ink > 100, `diff screenshot looks blank: ${JSON.stringify(stats)}`);
  await page.close();
}

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const results = [];
try {
  const data = path.join(source, 'tests', 'data', 'field-report');
  const global = await auditCase(browser, 'field-global', path.join(data, 'global.yaml'), 'dynamo-system');
  // The field report's global mode: the pod webhook is the one high webhook finding; the seven
  // on the operator's own resources are low (tests/data/field-report/README.md).
  check(global.alarmRows === 1 && global.podAlarm,
    `global mode: ${global.alarmRows} highlighted rows, expected the pod webhook's alone`);
  results.push(global);
  results.push(await auditCase(browser, 'field-restricted', path.join(data, 'restricted.yaml'), 'dynamo-system'));
  await compareCase(browser);
  await diffCase(browser);
  const bundles = [['kueue', 'kueue-system'], ['kserve', 'kserve'], ['gatekeeper', 'gatekeeper-system']];
  if (!fs.existsSync(corpus)) {
    console.log(`SKIP corpus pages: ${corpus} is missing`);
  } else {
    for (const [bundle, ns] of bundles) {
      results.push(await auditCase(browser, bundle, path.join(corpus, `${bundle}.yaml`), ns));
    }
    // kueue against a cluster of 50 namespaces (kubectl get ns -o yaml), some of them labelled.
    const items = ['kube-system', 'kube-public', 'kube-node-lease', 'default', 'kueue-system'];
    for (let i = items.length; i < 50; i += 1) items.push(`team-${String(i).padStart(2, '0')}`);
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: items.map((n, i) => ({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: n, labels: { 'kubernetes.io/metadata.name': n, ...(i % 7 === 0 ? { tier: 'batch' } : {}) } },
      })),
    };
    const namespacesFile = path.join(out, 'namespaces-50.yaml');
    fs.writeFileSync(namespacesFile, YAML.stringify(list));
    results.push(await auditCase(browser, 'kueue-50-namespaces', path.join(corpus, 'kueue.yaml'), 'kueue-system', namespacesFile));
  }
} finally {
  await browser.close();
}
for (const r of results) console.log(`${r.name}: ${r.bytes} bytes, ${r.findings} findings`);
if (failures) {
  console.log(`${failures} failures`);
  process.exit(1);
}
console.log('browser: all pages passed');
