#!/usr/bin/env python3
"""Runs clang-tidy over translation units, in parallel, skipping those whose result is cached.

Usage: scripts/tidy.py BUILD_DIR FILE...

The compile commands come from BUILD_DIR/compile_commands.json without the precompiled-header
flags (clang cannot read GCC's .gch files, and each file must stand on its own includes).

A clean result is remembered in $XDG_CACHE_HOME/footprint-tidy (~/.cache/footprint-tidy), keyed
by the SHA-256 of everything that decides it: clang-tidy's version, .clang-tidy, the compile
command, and the file as clang's preprocessor expands it with comments (NOLINT) and line markers
(header paths, for HeaderFilterRegex), every header it includes at the version installed. The
checkout's own path is replaced by a placeholder, so clones share results. A file is skipped only
when clang-tidy has passed on exactly these inputs before; anything else is checked, and a
machine without the cache checks every file. The clang-analyzer checks are left out for
*_test.cc files, which are checked in batches (test_batches).

As ccache's direct mode does, a manifest beside each clean result lists the files the
preprocessor read and their hashes: when none of them changed, the result is found without
running the preprocessor. Like ccache's, it does not notice a new header that would shadow one
it lists on the include path; the preprocessed key still decides whenever a listed file changed.
"""

import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time

# Debian 12's clang-tidy 22 (bookworm-security): since LLVM 21 it leaves system headers alone,
# which makes a test file about three times cheaper to check than with the default 14.
CLANG_TIDY = os.environ.get("CLANG_TIDY", "clang-tidy-22")
# A line marker of the preprocessor's output: # LINE "FILE" FLAGS...
LINE_MARKER = re.compile(rb'^# \d+ "((?:[^"\\]|\\.)*)"', re.MULTILINE)


def strip_pch(arguments):
    """Drops CMake's precompiled-header flags: -include .../cmake_pch.hxx and -Winvalid-pch."""
    out = []
    i = 0
    while i < len(arguments):
        arg = arguments[i]
        if arg in ("-include", "--include") and i + 1 < len(arguments) and \
                "cmake_pch" in arguments[i + 1]:
            i += 2
            continue
        if arg.startswith("-include") and "cmake_pch" in arg:
            i += 1
            continue
        if arg == "-Winvalid-pch":
            i += 1
            continue
        out.append(arg)
        i += 1
    return out


def load_commands(build_dir):
    with open(os.path.join(build_dir, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    commands = {}
    for entry in entries:
        arguments = entry.get("arguments") or shlex.split(entry["command"])
        path = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        commands[path] = {"directory": entry["directory"], "file": path,
                          "arguments": strip_pch(arguments)}
    return commands


def preprocessed(entry):
    """The translation unit as clang's preprocessor expands it, comments and line markers kept;
    None when that fails."""
    arguments = ["clang++"]
    skip = False
    for arg in entry["arguments"][1:]:
        if skip:
            skip = False
        elif arg in ("-o", "-MT", "-MF", "-MQ"):  # these take a value
            skip = True
        elif arg not in ("-c", "-MD", "-MMD"):
            arguments.append(arg)
    result = subprocess.run([*arguments, "-E", "-C"], cwd=entry["directory"], capture_output=True,
                            check=False)
    return result.stdout if result.returncode == 0 else None


# Tests are checked in batches, each one translation unit that includes TEST_BATCH of them: the
# headers (GoogleTest's, nlohmann-json's, the project's) are parsed once per batch instead of once
# per test, most of a test's cost. The unity build, which compiles each target as one file, keeps
# their names apart. The analyzer, which reads only a translation unit's main file, is off for
# tests anyway. A batch's diagnostics name the test file and line.
TEST_BATCH = 26


def test_batches(tests, commands, tidy_dir):
    """[(batch source, its tests)]: each batch written to tidy_dir (only when it changed, so
    that its cached result holds) and added to `commands` with the first test's flags."""
    tests = sorted(tests)
    batches = []
    for start in range(0, len(tests), TEST_BATCH):
        members = tests[start:start + TEST_BATCH]
        path = os.path.join(tidy_dir, f"tests_{start // TEST_BATCH}.cc")
        text = "".join(f'#include "{member}"\n' for member in members)
        try:
            with open(path, encoding="utf-8") as f:
                unchanged = f.read() == text
        except OSError:
            unchanged = False
        if not unchanged:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        first = commands[members[0]]
        arguments = [path if arg in (members[0], first["file"]) else arg
                     for arg in first["arguments"]]
        commands[path] = {"directory": first["directory"], "file": path, "arguments": arguments}
        batches.append((path, members))
    return batches


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    build_dir = os.path.realpath(sys.argv[1])
    root = os.path.dirname(os.path.realpath(__file__)).rsplit("/scripts", 1)[0]
    commands = load_commands(build_dir)

    # A compilation database without PCH flags, for clang-tidy.
    tidy_dir = os.path.join(build_dir, "clang-tidy")
    os.makedirs(tidy_dir, exist_ok=True)
    tests = [os.path.realpath(path) for path in sys.argv[2:]
             if path.endswith("_test.cc") and os.path.realpath(path) in commands]
    batches = test_batches(tests, commands, tidy_dir)
    with open(os.path.join(tidy_dir, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(list(commands.values()), f, indent=1)
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    cache_dir = os.path.join(cache_home, "footprint-tidy")
    os.makedirs(cache_dir, exist_ok=True)

    version = subprocess.run([CLANG_TIDY, "--version"], capture_output=True, check=True).stdout
    with open(os.path.join(root, ".clang-tidy"), "rb") as f:
        config = f.read()

    batch_paths = {batch for batch, _ in batches}

    def extra_checks(path):
        # The static analyzer costs most of clang-tidy's time, and in a test it mostly walks
        # GoogleTest's macros: it runs on the code under test, every other check on both. Two
        # checks cannot read a test: ASSERT_TRUE(opt) returns early where the optional-access
        # model does not look, and a test binary whose constants throw while starting fails. A
        # batch includes the tests' .cc files on purpose.
        return ["--checks=-clang-analyzer-*,-bugprone-unchecked-optional-access,"
                "-bugprone-throwing-static-initialization,-bugprone-suspicious-include"
                ] if path in batch_paths else []

    def local(data):  # the checkout's and the build's paths, as placeholders
        return data.replace(build_dir.encode(), b"<build>").replace(root.encode(), b"<root>")

    def unlocal(data):
        return data.replace(b"<build>", build_dir.encode()).replace(b"<root>", root.encode())

    def digest_of(*parts):
        digest = hashlib.sha256()
        for part in parts:
            digest.update(hashlib.sha256(part).digest())
        return digest.hexdigest()

    file_hashes = {}  # path -> SHA-256 of its content, read once per run

    def file_hash(path):
        if path not in file_hashes:
            try:
                with open(path, "rb") as f:
                    file_hashes[path] = hashlib.sha256(f.read()).hexdigest()
            except OSError:
                file_hashes[path] = None
        return file_hashes[path]

    def direct_hit(manifest, directory):
        """Whether the manifest's clean result still holds: every file it lists is unchanged."""
        try:
            with open(manifest, encoding="utf-8") as f:
                recorded = json.load(f)
        except (OSError, ValueError):
            return False
        for name, sha in recorded["files"]:
            path = os.path.join(directory, unlocal(name.encode()).decode())
            if file_hash(path) != sha:
                return False
        return os.path.exists(os.path.join(cache_dir, recorded["result"]))

    def manifest_files(directory, text, since):
        """The files the preprocessor read, as [local path, SHA-256] read now: None when one is
        gone or changed after `since` (the preprocessor may have read it before the change)."""
        names = {m.group(1) for m in LINE_MARKER.finditer(text)} - {b"<built-in>",
                                                                      b"<command line>"}
        files = []
        for name in sorted(names):
            path = os.path.join(directory, name.decode())
            try:
                if os.stat(path).st_mtime >= since:
                    return None
                with open(path, "rb") as f:
                    files.append([local(name).decode(), hashlib.sha256(f.read()).hexdigest()])
            except OSError:
                return None
        return files

    def write_manifest(manifest, files, result):
        with open(manifest + ".tmp", "w", encoding="utf-8") as f:
            json.dump({"result": result, "files": files}, f)
        os.replace(manifest + ".tmp", manifest)

    def check(path):
        """(path, clean, output, how): how is "direct" or "preprocessed" for a cached result."""
        entry = commands.get(os.path.realpath(path))
        if entry is None:
            return path, False, f"{path}: not in {build_dir}/compile_commands.json\n", None
        setup = (version, config, " ".join(extra_checks(path)).encode(),
                 local(json.dumps(entry["arguments"]).encode()))
        source_hash = file_hash(entry["file"])
        manifest = None
        if source_hash is not None:
            manifest = os.path.join(cache_dir, "direct-" + digest_of(
                *setup, local(entry["file"].encode()), source_hash.encode()))
            if direct_hit(manifest, entry["directory"]):
                return path, True, "", "direct"
        since = time.time()
        text = preprocessed(entry)
        key = None
        if text is not None:
            key = digest_of(*setup, local(text))
            if os.path.exists(os.path.join(cache_dir, key)):
                files = manifest_files(entry["directory"], text, since)
                if manifest and files:
                    write_manifest(manifest, files, key)
                return path, True, "", "preprocessed"
        result = subprocess.run([CLANG_TIDY, "-p", tidy_dir, "--quiet", *extra_checks(path), path],
                                capture_output=True, text=True, check=False)
        ok = result.returncode == 0
        # Remembered only when no file the preprocessor read has changed since: clang-tidy may
        # have read the new version, which the key does not describe.
        files = manifest_files(entry["directory"], text, since) if ok and key else None
        if files is not None:
            with open(os.path.join(cache_dir, key), "w", encoding="utf-8"):
                pass
            if manifest:
                write_manifest(manifest, files, key)
        output = "" if ok else result.stdout + result.stderr
        return path, ok, output, None

    jobs = int(os.environ.get("TIDY_JOBS", os.cpu_count() or 1))
    # The batches are the dearest units: they start first, so that the last to finish is a
    # source file and no core waits long for it.
    files = [batch for batch, _ in batches]
    files += [path for path in sys.argv[2:] if os.path.realpath(path) not in tests]
    failed = 0
    cached = {"direct": 0, "preprocessed": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for _, ok, output, how in pool.map(check, files):
            if how:
                cached[how] += 1
            if not ok:
                failed += 1
                sys.stdout.write(output)
    unchanged = cached["direct"] + cached["preprocessed"]
    print(f"clang-tidy: {len(files)} translation units ({len(tests)} tests in {len(batches)}), "
          f"{len(files) - unchanged} checked, {unchanged} "
          f"unchanged since a clean run ({cached['direct']} found by their manifest, "
          f"{cached['preprocessed']} by their preprocessed text), {failed} with findings")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
