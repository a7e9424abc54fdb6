#!/usr/bin/env python3
"""Writes footprint's man page and its bash and zsh completions from the built binary.

Everything comes from what the binary prints: `footprint --help` for the commands,
`footprint COMMAND [SUBCOMMAND] --help` for their options (CLI11's layout), and
`footprint checks --format json` for the check registry. The build runs this after linking, so
the man page and the completions cannot describe another binary than the one they ship with.
Help text this script cannot read is an error, not a silently thinner page.
"""

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field

# CLI11 pads "  NAME TYPE" to this column and starts the description there; a longer name puts
# the description on the next line, indented to the same column.
CLI11_COLUMN = 30


# CLI11's value column: TYPE[:CHECK][=DEFAULT][ ...][ REQUIRED], e.g. "TEXT:{text,json}=text",
# "UINT:INT in [1 - 64]=4", "TEXT ... REQUIRED".
CLI11_VALUE = re.compile(r"(?P<type>[A-Z]+)(?::(?P<check>.*?))?(?:=(?P<default>\S*))?"
                         r"(?P<repeatable> \.\.\.)?(?P<required> REQUIRED)?$")


@dataclass
class Option:
    names: list  # e.g. ["-n", "--namespace"]; empty for a positional
    value: str  # CLI11's value column, e.g. "TEXT=default"; empty (or "REQUIRED") for a flag
    description: str
    choices: list = field(default_factory=list)
    placeholder: str = ""  # what the man page shows for the value: "FILE", "text|json"...
    default: str = ""
    repeatable: bool = False
    required: bool = False

    @property
    def takes_value(self):
        return bool(self.placeholder)

    def read_value(self):
        match = CLI11_VALUE.match(self.value)
        if not match:
            self.required = self.value == "REQUIRED"
            return
        check = match.group("check") or ""
        braces = re.search(r"\{([^}]*)\}", check)
        if braces:
            self.choices = [c.split("->")[0] for c in braces.group(1).split(",")]
        self.placeholder = "|".join(self.choices) or ("FILE" if check == "FILE" else
                                                      match.group("type"))
        self.default = match.group("default") or ""
        self.repeatable = bool(match.group("repeatable"))
        self.required = bool(match.group("required"))

    def notes(self):
        """What the value column says that the description may not: default, repeatable."""
        notes = []
        if self.default and "default" not in self.description:
            notes.append(f"default: {self.default}")
        if self.repeatable and "repeatable" not in self.description:
            notes.append("repeatable")
        if self.required:
            notes.append("required")
        return f" ({'; '.join(notes)})" if notes else ""


@dataclass
class Command:
    path: list  # e.g. ["images", "relocate"]
    summary: str
    description: str = ""
    usage: str = ""
    positionals: list = field(default_factory=list)  # Options without names
    options: list = field(default_factory=list)
    subcommands: list = field(default_factory=list)


class HelpError(Exception):
    pass


def run(binary, *args):
    result = subprocess.run([binary, *args], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise HelpError(f"`footprint {' '.join(args)}` exited {result.returncode}: {result.stderr}")
    return result.stdout


def top_level(binary):
    """The description, the commands (name, summary) and the exit-code line of `--help`."""
    text = run(binary, "--help")
    blocks = text.split("\n\n")
    description = blocks[1].replace("\n", " ") if len(blocks) > 1 else ""
    commands = list_block(text, "commands")
    exit_codes = next((line for line in text.splitlines() if line.startswith("Exit codes:")), "")
    if not commands:
        raise HelpError("`footprint --help` lists no commands")
    return description, commands, exit_codes


def list_block(text, *headers):
    """The `  name  summary` lines under a line `HEADER:` (any of headers, any case)."""
    entries = []
    inside = False
    for line in text.splitlines():
        if re.fullmatch(r"[A-Za-z ]+:", line.strip()) and not line.startswith(" "):
            inside = line.strip()[:-1].lower() in headers
            continue
        if inside:
            match = re.match(r"^  ([a-z][a-z0-9-]*)\s{2,}(.*)$", line)
            if match:
                entries.append((match.group(1), match.group(2).strip()))
            elif line.strip():
                inside = False
    return entries


def subcommand_list(path, text):
    """(name, summary) of the subcommands a command's help names: a `targets:` or `subcommands:`
    list, `usage: footprint CMD a|b`, or a pointer like `footprint CMD SUB --help`. A summary
    is empty when the help gives none."""
    found = list_block(text, "targets", "subcommands", "commands")
    prefix = re.escape(" ".join(["footprint", *path]))
    usage = re.search(rf"^usage: {prefix} ([a-z-]+(?:\|[a-z-]+)+)\b", text, re.M | re.I)
    if usage:
        found += [(name, "") for name in usage.group(1).split("|")]
    found += [(name, "") for name in re.findall(rf"`{prefix} ([a-z][a-z-]*) --help`", text)]
    summaries = {}
    for name, summary in found:
        summaries[name] = summaries.get(name) or summary
    return list(summaries.items())


def first_sentence(text):
    return re.split(r"(?<=[a-z)])[.:] ", text, maxsplit=1)[0].rstrip(".")


def parse_cli11(path, summary, text):
    """A Command from CLI11's help layout: description, Usage:, Positionals:, Options:."""
    command = Command(path=path, summary=summary)
    lines = text.splitlines()
    section = "description"
    description = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith("Usage: "):
            command.usage = line[len("Usage: "):]
            section = None
            continue
        if line in ("Positionals:", "Options:", "Flags:"):
            section = line[:-1]
            continue
        if section == "description":
            description.append(line)
            continue
        if section is None or not line.startswith("  ") or line.startswith(" " * CLI11_COLUMN):
            continue
        if i < len(lines) and lines[i].startswith(" " * CLI11_COLUMN):
            spec, desc = line.strip(), lines[i].strip()
            i += 1
        else:
            spec, desc = line[:CLI11_COLUMN].strip(), line[CLI11_COLUMN:].strip()
        name, _, value = spec.partition(" ")
        option = Option(names=[] if section == "Positionals" else name.split(","),
                        value=value.strip(), description=desc)
        option.read_value()
        if section == "Positionals":
            option.placeholder = name.upper()
            command.positionals.append(option)
        else:
            command.options.append(option)
    command.description = " ".join(l.strip() for l in description if l.strip())
    if not command.usage or not command.options:
        raise HelpError(f"cannot read `footprint {' '.join(path)} --help`:\n{text}")
    return command


def read_command(binary, path, summary):
    text = run(binary, *path, "--help")
    subcommands = subcommand_list(path, text)
    if "Usage: " in text:
        command = parse_cli11(path, summary, text)
    elif subcommands:  # a dispatcher whose own help is only its subcommands
        command = Command(path=path, summary=summary,
                          description=" ".join(text.split("\n\n")[1:]).strip().replace("\n", " "),
                          usage=text.splitlines()[0].removeprefix("usage: "))
    else:
        raise HelpError(f"cannot read `footprint {' '.join(path)} --help`:\n{text}")
    for name, sub_summary in subcommands:
        sub = read_command(binary, [*path, name], sub_summary)
        sub.summary = sub.summary or first_sentence(sub.description)
        command.subcommands.append(sub)
    return command


# ---- man page ----

def roff(text):
    """Escapes text for roff: backslashes, hyphens as minus signs (so options and check IDs copy
    and paste), and a leading dot or quote."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.M)


def man_option(option):
    names = ", ".join(f"\\fB{roff(n)}\\fR" for n in option.names)
    value = f" \\fI{roff(option.placeholder)}\\fR" if option.placeholder else ""
    dots = "..." if option.repeatable else ""
    return f".TP\n{names}{value}{dots}\n{roff(option.description + option.notes())}\n"


def man_command(command):
    out = f".SS {roff(' '.join(['footprint', *command.path]))}\n"
    out += roff(command.description or command.summary) + "\n"
    if command.usage:
        out += f".PP\n.B {roff(command.usage)}\n"
    for positional in command.positionals:
        dots = "..." if positional.repeatable else ""
        out += f".TP\n\\fI{roff(positional.placeholder)}\\fR{dots}\n"
        out += roff(positional.description + positional.notes()) + "\n"
    for option in command.options:
        out += man_option(option)
    for sub in command.subcommands:
        out += man_command(sub)
    return out


def man_page(version, description, commands, exit_codes, checks):
    name = description.split(",")[0]
    out = [f'.TH FOOTPRINT 1 "" "footprint {version}" "User Commands"\n',
           # Left-aligned and unhyphenated: option names and check IDs must stay whole.
           ".nh\n.ad l\n",
           ".SH NAME\nfootprint \\- " + roff(name[:1].lower() + name[1:]) + "\n",
           ".SH SYNOPSIS\n.B footprint\n\\fICOMMAND\\fR [\\fIoptions\\fR] [\\fIINPUT\\fR...]\n"
           ".br\n.B kubectl footprint\n\\fICOMMAND\\fR [\\fIoptions\\fR] [\\fIINPUT\\fR...]\n"
           ".br\n.B helm footprint\n\\fICHART\\fR [\\fIoptions\\fR]\n",
           ".SH DESCRIPTION\n" + roff(description) + "\n.PP\n"
           "INPUT is a manifest file, a directory of them, \\- for standard input, or a Helm "
           "chart (a directory with Chart.yaml, or a .tgz), which is rendered with helm.\n"
           ".SH COMMANDS\n"]
    for command in commands:
        out.append(man_command(command))
    out.append(".SH CHECKS\nThe checks \\fBfootprint audit\\fR runs, with the worst severity "
               "each reports and its area (\\fBfootprint checks\\fR lists them too).\n")
    for check in checks:
        details = [str(check[key]) for key in ("severity", "area") if key in check]
        out.append(f".TP\n.B {roff(check['id'])}\n")
        if details:
            out.append(f"({roff(', '.join(details))}) ")
        out.append(roff(check["description"]) + "\n")
        for key, label in (("rationale", ""), ("fix", "Fix: ")):
            if check.get(key):
                out.append(f".br\n{roff(label + str(check[key]))}\n")
    if exit_codes:
        out.append(".SH EXIT STATUS\n")
        for code, meaning in re.findall(r"(\d+) ([^,.]+)", exit_codes.removeprefix("Exit codes:")):
            out.append(f".TP\n.B {code}\n{roff(meaning.strip())}\n")
    out.append(".SH ENVIRONMENT\n"
               ".TP\n.B FOOTPRINT_HELM\nThe helm binary that renders charts "
               "(default: helm on PATH).\n"
               ".TP\n.B NO_COLOR\nWhen set, text output is never coloured.\n"
               ".TP\n.B REGISTRY_AUTH_FILE\\fR, \\fBDOCKER_CONFIG\nWhere registry credentials "
               "are read (default: ~/.docker/config.json).\n"
               ".SH SEE ALSO\n\\fBhelm\\fR(1), \\fBkubectl\\fR(1)\n")
    return "".join(out)


# ---- completions ----

def all_commands(commands):
    for command in commands:
        yield command
        yield from all_commands(command.subcommands)


def bash_completion(commands):
    lines = ["# bash completion for footprint; generated from its help by packaging/cli_docs.py.",
             "_footprint() {",
             "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
             "  local path='' i word",
             "  # The command path: the command, then a subcommand right after it.",
             "  for ((i = 1; i < COMP_CWORD; i++)); do",
             "    word=${COMP_WORDS[i]}",
             "    [[ $word == -* ]] && break",
             "    case \"$path/$word\" in"]
    known = [" ".join(c.path) for c in all_commands(commands)]
    for name in known:
        parent, _, last = name.rpartition(" ")
        lines.append(f"      '{parent}/{last}') path='{name}' ;;")
    lines += ["      *) break ;;", "    esac", "  done", "  local options='' choices='' subcommands=''",
              "  case $path in",
              f"    '') subcommands='{' '.join(c.path[0] for c in commands)} --help --version' ;;"]
    for command in all_commands(commands):
        name = " ".join(command.path)
        options = " ".join(n for o in command.options for n in o.names)
        subs = " ".join(s.path[-1] for s in command.subcommands)
        lines.append(f"    '{name}')")
        lines.append(f"      options='{options}'")
        if subs:
            lines.append(f"      [[ $COMP_CWORD -eq {len(command.path) + 1} ]] && "
                         f"subcommands='{subs}'")
        value_cases = []
        for option in command.options:
            if option.takes_value:
                pattern = "|".join(option.names)
                value_cases.append(f"        {pattern}) choices='{' '.join(option.choices)}' ;;")
        if value_cases:
            lines.append("      case $prev in")
            lines += value_cases
            lines.append("        *) prev='' ;;")
            lines.append("      esac")
        else:
            lines.append("      prev=''")
        lines.append("      ;;")
    lines += ["  esac",
              "  # After an option that takes a value: its choices, else files (COMPREPLY empty).",
              "  if [[ -n $prev && $path != '' ]]; then",
              "    [[ -n $choices ]] && mapfile -t COMPREPLY < <(compgen -W \"$choices\" -- \"$cur\")",
              "    return 0",
              "  fi",
              "  if [[ $cur == -* ]]; then",
              "    mapfile -t COMPREPLY < <(compgen -W \"$options $subcommands\" -- \"$cur\")",
              "  elif [[ -n $subcommands ]]; then",
              "    mapfile -t COMPREPLY < <(compgen -W \"$subcommands\" -- \"$cur\")",
              "  fi",
              "  return 0",
              "}",
              "complete -o bashdefault -o default -F _footprint footprint kubectl-footprint",
              ""]
    return "\n".join(lines)


def zsh_quote(text):
    """For text inside a single-quoted _arguments or _describe item: quotes and brackets."""
    return text.replace("'", "'\\''").replace("[", "\\[").replace("]", "\\]")


def zsh_spec(option):
    description = zsh_quote(option.description.split(". ")[0])
    if option.takes_value:
        if option.choices:
            action = f"({' '.join(option.choices)})"
        elif option.placeholder == "FILE" or re.search(r"\b(file|directory)\b",
                                                      option.description, re.I):
            action = "_files"
        else:
            action = " "  # free text: nothing to offer
        message = option.placeholder.lower().replace(":", "")
        value = f":{message}:{action}"
    else:
        value = ""
    if option.repeatable:  # offered again after each use
        prefix = "'*'"
    elif len(option.names) > 1:  # -n and --namespace exclude each other
        prefix = "'(" + " ".join(option.names) + ")'"
    else:
        prefix = ""
    names = "{" + ",".join(option.names) + "}" if len(option.names) > 1 else option.names[0]
    return f"{prefix}{names}'[{description}]{value}'"


def zsh_function_name(command):
    return "_footprint_" + "_".join(p.replace("-", "_") for p in command.path)


def zsh_completion(commands):
    out = ["#compdef footprint kubectl-footprint",
           "# zsh completion for footprint; generated from its help by packaging/cli_docs.py.",
           ""]
    for command in all_commands(commands):
        out.append(f"{zsh_function_name(command)}() {{")
        specs = [zsh_spec(o) for o in command.options]
        if command.subcommands:
            out.append("  local -a subcommands=(")
            for sub in command.subcommands:
                out.append(f"    '{sub.path[-1]}:{zsh_quote(sub.summary)}'")
            out.append("  )")
            out.append("  if (( CURRENT == 2 )); then")
            out.append("    _describe -t commands 'subcommand' subcommands")
            if command.positionals:
                out.append("    _files")
            out.append("    return")
            out.append("  fi")
            out.append("  case $words[2] in")
            for sub in command.subcommands:
                out.append(f"    {sub.path[-1]}) shift words; (( CURRENT-- )); "
                           f"{zsh_function_name(sub)}; return ;;")
            out.append("  esac")
        out.append("  _arguments -s \\")
        for spec in specs:
            out.append(f"    {spec} \\")
        out.append("    '*:input:_files'")
        out.append("}")
        out.append("")
    out.append("_footprint() {")
    out.append("  local -a commands=(")
    for command in commands:
        out.append(f"    '{command.path[0]}:{zsh_quote(command.summary)}'")
    out.append("  )")
    out.append("  if (( CURRENT == 2 )); then")
    out.append("    _describe -t commands 'footprint command' commands")
    out.append("    return")
    out.append("  fi")
    out.append("  shift words; (( CURRENT-- ))")
    out.append("  case $words[1] in")
    for command in commands:
        out.append(f"    {command.path[0]}) {zsh_function_name(command)} ;;")
    out.append("  esac")
    out.append("}")
    out.append("")
    out.append("# Autoloaded by compinit this file is _footprint's body; sourced, it only defines.")
    out.append('if [[ $funcstack[1] == _footprint ]]; then')
    out.append('  _footprint "$@"')
    out.append("fi")
    out.append("")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--man", required=True)
    parser.add_argument("--bash", required=True)
    parser.add_argument("--zsh", required=True)
    args = parser.parse_args()
    try:
        description, listed, exit_codes = top_level(args.binary)
        commands = [read_command(args.binary, [name], summary) for name, summary in listed]
        checks = json.loads(run(args.binary, "checks", "--format", "json"))
    except (HelpError, OSError, json.JSONDecodeError) as error:
        print(f"cli_docs.py: {error}", file=sys.stderr)
        return 1
    outputs = {args.man: man_page(args.version, description, commands, exit_codes, checks),
               args.bash: bash_completion(commands), args.zsh: zsh_completion(commands)}
    for path, text in outputs.items():
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        data = text.encode("utf-8")
        if path.endswith(".gz"):  # as Debian installs man pages; mtime 0 keeps it reproducible
            data = gzip.compress(data, compresslevel=9, mtime=0)
        with open(path, "wb") as out:
            out.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
