#!/usr/bin/env python3
"""Checks that HTML pages footprint writes are well-formed and self-contained.

Two parsers read each page: Python's html.parser, with a stack that requires every non-void
element to be closed in order (the HTML tokenizer alone forgives unclosed tags), and
xml.etree, which rejects anything that is not also well-formed XML. Then the page must not name
anything outside itself: no src or href to another document, no CSS url() or @import, no <link>.
Usage: html_wellformed.py PAGE...
"""
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

# https://html.spec.whatwg.org/multipage/syntax.html#void-elements
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
SVG_NAMESPACE = "http://www.w3.org/2000/svg"


class Nesting(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.external = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "action", "xlink:href") and value and not value.startswith("#"):
                self.external.append(f"<{tag} {name}={value}>")
        if tag == "link":
            self.external.append("<link>")
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack:
            self.errors.append(f"{self.getpos()}: </{tag}> closes nothing")
            return
        open_tag, where = self.stack.pop()
        if open_tag != tag:
            self.errors.append(f"{self.getpos()}: </{tag}> closes <{open_tag}> opened at {where}")


def check(path):
    text = open(path, encoding="utf-8").read()
    problems = []
    parser = Nesting()
    parser.feed(text)
    parser.close()
    problems += parser.errors
    problems += [f"unclosed <{tag}> opened at {where}" for tag, where in parser.stack]
    problems += [f"external reference {e}" for e in parser.external]
    try:
        ET.fromstring(text.replace("<!DOCTYPE html>", "", 1))
    except ET.ParseError as e:
        problems.append(f"not well-formed XML: {e}")
    # Text may quote URLs (a webhook's backend); only the style could make the browser fetch.
    for style in re.findall(r"<style>(.*?)</style>", text, re.S):
        for pattern in (r"url\(", r"@import"):
            if re.search(pattern, style):
                problems.append(f"the style uses {pattern}")
    if not text.startswith("<!DOCTYPE html>"):
        problems.append("no <!DOCTYPE html>")
    return problems


def main():
    status = 0
    for path in sys.argv[1:]:
        for p in check(path):
            print(f"{path}: {p}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
