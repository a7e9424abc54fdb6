#!/usr/bin/env bash
# Nothing from the input reaches a reader raw: in every human-readable format and message, C0
# controls but tab and newline (ESC, CR, BEL...), DEL, C1 controls (U+0080-U+009F), the
# bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069) and invalid UTF-8 are
# shown escaped (\x1b, \u202e). JSON and SARIF escape them as JSON does and stay valid.
source "$(dirname "$0")/common.inc"
cd "$TMP"
hostile=$DATA/untrusted/terminal-escapes.yaml

# raw FILE [--sgr]: fails when FILE holds a byte that steers a terminal or reorders text, or is
# not UTF-8. With --sgr, the colour sequences footprint itself writes (ESC [ digits ; m) are
# allowed and removed first.
raw() {
  "$PYTHON" - "$@" <<'PY' || fail "raw control characters in $1: $(head -c 600 "$1" | od -c | head -20)"
import re, sys
data = open(sys.argv[1], "rb").read()
if "--sgr" in sys.argv[2:]:
    data = re.sub(rb"\x1b\[[0-9;]*m", b"", data)
data.decode("utf-8")  # raises on invalid UTF-8
bad = re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]", data)
sys.exit(1 if bad else 0)
PY
}

# The suppression reason and the image, in each human-readable format: escaped, never raw.
for format in text markdown github junit html; do
  run "$FOOTPRINT" audit --no-config "$hostile" -n ns --color never --format "$format"
  expect_status 0
  cp "$OUT" "out.$format"
  raw "out.$format"
  # Pieces without spaces, where lines may wrap, or "[", which Markdown escapes as "\[".
  for shown in 'nginx:1.25\x1b' '2K\x0dnothing' 'see\u009b2J' 'approved\x1b' \
    '\u202eliated\u2066' '\u0085'; do
    grep -qF "$shown" "out.$format" ||
      fail "$format shows '$shown': $(grep -o 'nginx.\{30\}\|approved.\{40\}' "out.$format" | head -3)"
  done
done

# JSON and SARIF carry the strings exactly, in JSON's own escapes, and parse.
for format in json sarif; do
  run "$FOOTPRINT" audit --no-config "$hostile" -n ns --format "$format"
  expect_status 0
  "$PYTHON" - "$OUT" <<'PY' || fail "$format does not keep the strings"
import json, sys
text = json.dumps(json.load(open(sys.argv[1])))
assert "nginx:1.25\\u001b[2K\\rnothing to see\\u009b2J" in text, text[:400]
PY
done

# With colour, footprint's own colour sequences are the only escape sequences written.
run "$FOOTPRINT" audit --no-config "$hostile" -n ns --color always
expect_status 0
grep -q $'\x1b\\[' "$OUT" || fail "--color always paints"
raw "$OUT" --sgr
expect_stdout 'approved\x1b[1A\x1b[2K'

# Messages that quote the input on stderr: a file name with a clear-screen sequence, and one that
# is not UTF-8.
run "$FOOTPRINT" audit --no-config $'gone\x1b[2J\x1b]0;title\x07.yaml'
expect_status 2
cp "$ERR" err.missing
raw err.missing
expect_stderr 'gone\x1b[2J\x1b]0;title\x07.yaml'
cp "$hostile" $'bad\xff.yaml'
run "$FOOTPRINT" audit --no-config $'bad\xff.yaml' -n ns
expect_status 0
cp "$OUT" out.latin
raw out.latin
expect_stdout 'bad\xff.yaml'
# JSON text is Unicode (RFC 8259): in JSON the byte becomes U+FFFD, SARIF's URIs percent-encode
# it, and both stay valid (nlohmann's dump() would throw on it).
run "$FOOTPRINT" audit --no-config $'bad\xff.yaml' -n ns --format json
expect_status 0
"$PYTHON" -c 'import json, sys; assert "bad\\ufffd.yaml" in json.dumps(json.load(open(sys.argv[1])))' "$OUT" ||
  fail "JSON names bad\ufffd.yaml"
run "$FOOTPRINT" audit --no-config $'bad\xff.yaml' -n ns --format sarif
expect_status 0
"$PYTHON" -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$OUT" ||
  fail "SARIF is not valid JSON"

# The commands' own text: can-i names the subject it was given.
run "$FOOTPRINT" can-i get secrets -n ns --as $'eve\x1b[2K\r' "$hostile"
expect_status 1
cp "$OUT" out.cani
raw out.cani
expect_stdout 'eve\x1b[2K\x0d may not get secrets in ns'
