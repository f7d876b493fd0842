#!/usr/bin/env python3
"""Generates the vendor-event test table and the perf<->libpfm4 name pairs.

tests/interop/event/vendor_gen.py PERFEV_BINARY

For each model of MODELS it asks perf (in a private mount namespace over a
fake sysfs with that model's core PMU, PERF_CPUID naming the model) for its
vendor events and their encodings, asks perfev for libpfm4's (perfev list
--json vendor), and matches them by encoding. It writes:
  src/lib/event/pfm_names.h   events whose perf name and libpfm4 name differ
  tests/data/vendor/events.tsv the test table: cpuid, event string, and the
                               attrs perf builds for it (the live oracle in
                               tests/interop/event/vendor.c checks them again)
  tests/data/vendor/perf_only.tsv  perf's events libpfm4 4.13 lacks
Run it as root, where `unshare -m` works; it needs perf (linux-perf).
"""
import json, os, re, subprocess, sys, tempfile, random

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MKFAKE = os.path.join(ROOT, "tests/data/vendor/mkfake.sh")
MODELS = [  # cpuid, core PMU kind, what it is, events to test
    ("GenuineIntel-6-55-4", "intel", "Skylake-SP (Intel server)", 60),
    ("GenuineIntel-6-6A-6", "intel", "Ice Lake-SP (Intel server)", 55),
    ("GenuineIntel-6-5E-3", "intel", "Skylake (Intel client)", 55),
    ("AuthenticAMD-23-31-0", "amd", "Zen 2", 50),
    ("AuthenticAMD-25-1-1", "amd", "Zen 3", 50),
    ("GenuineIntel-6-97-2", "hybrid", "Alder Lake (hybrid cpu_core/cpu_atom)", 50),
]
PLAIN_TERMS = {"event", "umask", "cmask", "inv", "edge", "any", "period", "pc"}
FIELDS = ["type", "config", "config1", "config2", "exclude_user", "exclude_kernel",
          "exclude_hv", "exclude_guest", "precise_ip"]


def in_ns(fake, cpuid, cmd):
    sh = "mount --bind %s /sys/bus/event_source/devices && PERF_CPUID=%s %s" % (fake, cpuid, cmd)
    return subprocess.run(["unshare", "-m", "sh", "-c", sh], capture_output=True, text=True).stdout + \
        subprocess.run(["true"], capture_output=True, text=True).stdout


def in_ns_all(fake, cpuid, cmd):
    sh = "mount --bind %s /sys/bus/event_source/devices && PERF_CPUID=%s %s 2>&1" % (fake, cpuid, cmd)
    return subprocess.run(["unshare", "-m", "sh", "-c", sh], capture_output=True, text=True).stdout


def perf_events(fake, cpuid):
    """perf's vendor events: name -> (pmu, {term: value})."""
    out = in_ns_all(fake, cpuid, "perf list --details pmu")
    ev, name = {}, None
    for line in out.splitlines():
        m = re.match(r"^  ([a-z0-9_.]+)\s*$", line)
        if m:
            name = m.group(1)
            continue
        m = re.match(r"^\s+(cpu|cpu_core|cpu_atom)/([^/]*)/\s*$", line)
        if m and name:
            terms = {}
            for t in m.group(2).split(","):
                k, _, v = t.partition("=")
                terms[k] = int(v, 0) if v else 1
            ev.setdefault(name, []).append((m.group(1), terms))
            continue
    return ev


def oracle_raw(fake, cpuid, events):
    """perf's attrs for events, in order: [(name, pmu, attr)], one per core PMU an event lands on.

    perf -vv prints "NAME -> PMU/terms/" for each alias it expands, in
    order, then for each event its open attempts (the first is the attr it
    built, the rest its fallbacks), ending with "Warning:" when none opened.
    """
    out = in_ns_all(fake, cpuid, "perf stat -vv -e '%s' -- true" % ",".join(events))
    names = re.findall(r"^(\S+) -> (cpu|cpu_core|cpu_atom)/", out, re.M)
    return [(n, p, a) for (n, p), a in zip(names, first_attempts(out))]


def first_attempts(out):
    """The first attr of each event's open attempts (the rest are perf's fallbacks)."""
    groups, cur, blk = [], [], None
    for line in out.splitlines():
        if line.startswith("perf_event_attr:"):
            blk = {f: 0 for f in FIELDS}
            cur.append(blk)
        elif line.startswith("Warning:"):
            if cur:
                groups.append(cur[0])
            cur, blk = [], None
        elif blk is not None:
            m = re.match(r"^  (\w+)\s+(\S+)", line)
            if m and m.group(1) in FIELDS:
                blk[m.group(1)] = int(m.group(2), 0)
            elif line.startswith("sys_perf"):
                blk = None
    return groups


def oracle(fake, cpuid, events):
    res = {}
    for n, p, a in oracle_raw(fake, cpuid, events):
        res.setdefault(n, []).append(a)
    return [res.get(e, []) for e in events]


def perfev_list(perfev, cpuid):
    env = dict(os.environ, PERF_CPUID=cpuid)
    out = subprocess.run([perfev, "list", "--json", "vendor"], capture_output=True, text=True, env=env).stdout
    return [e for e in json.loads(out)["events"] if e["class"] == "vendor"]


TABLES = {  # (cpuid, pmu) -> libpfm4 table, as src/lib/event/pfm.c's models[] says
    ("GenuineIntel-6-55-4", "cpu"): "skx", ("GenuineIntel-6-6A-6", "cpu"): "icx",
    ("GenuineIntel-6-5E-3", "cpu"): "skl", ("AuthenticAMD-23-31-0", "cpu"): "amd64_fam17h_zen2",
    ("AuthenticAMD-25-1-1", "cpu"): "amd64_fam19h_zen3",
    ("GenuineIntel-6-97-2", "cpu_core"): "spr", ("GenuineIntel-6-97-2", "cpu_atom"): "tmt",
}


def variants(pev, names):
    """perf's modifiers and terms on a few of the events."""
    out = []
    for n in names[:3]:
        pmu = pev[n][0][0]  # a PMU that has it (hybrid: cpu_atom or cpu_core)
        out += [n + ":u", n + ":k", n.upper(), "%s/%s,cmask=2,inv/" % (pmu, n), n + "/cmask=1,edge/"]
    return out


def main():
    perfev = sys.argv[1]
    random.seed(17)
    pairs, table, perf_only, counts, hybrid_extra = {}, [], [], [], []
    tmp = tempfile.mkdtemp()
    for cpuid, kind, what, want in MODELS:
        fake = os.path.join(tmp, kind)
        subprocess.run([MKFAKE, fake, kind], check=True)
        pev = perf_events(fake, cpuid)
        mine = perfev_list(perfev, cpuid)
        # libpfm4's own name in perf's spelling (EVENT:UMASK -> event.umask): perfev
        # lists the renamed ones under perf's name already, so match on libpfm4's
        by_name = {(e["pmu"], e["alias"].lower().replace(":", ".", 1)): e for e in mine}
        by_enc = {}
        for e in mine:
            by_enc.setdefault((e["pmu"], e["config"], e["config1"]), []).append(e)
        plain = {n: v for n, v in pev.items() if all(set(t) <= PLAIN_TERMS for _, t in v)}
        names = sorted(plain)
        attrs = dict(zip(names, oracle(fake, cpuid, names)))
        same, differ, lack = [], [], set()
        for n in names:
            got = attrs.get(n) or []
            for a in got:
                pmu = {4: "cpu_core" if kind == "hybrid" else "cpu", 8: "cpu_atom"}[a["type"]]
                mine_e = by_name.get((pmu, n))
                if mine_e and (mine_e["config"], mine_e["config1"]) == (a["config"], a["config1"]):
                    continue
                cands = by_enc.get((pmu, a["config"], a["config1"]), [])
                if cands:
                    head = n.split(".")[0].upper()
                    cands.sort(key=lambda e: (not e["alias"].startswith(head), e["alias"]))
                    differ.append(n)
                    pairs.setdefault((TABLES[(cpuid, pmu)], n), cands[0]["alias"])
                else:
                    perf_only.append((cpuid, pmu, n, "%#x" % a["config"]))
                    lack.add(n)
            extra = [p for p in ("cpu_core", "cpu_atom") if kind == "hybrid" and (p, n) in by_name and
                     p not in [{4: "cpu_core", 8: "cpu_atom"}[a["type"]] for a in got]]
            if extra:  # libpfm4's stand-in table has it where perf's has not
                hybrid_extra.append((cpuid, n, ",".join(extra)))
            elif got and n not in differ and n not in lack:
                same.append(n)
        # the table: every renamed event, then events of the same name, to `want`
        extra_names = set(n for c, n, _ in hybrid_extra if c == cpuid)
        chosen = [n for n in sorted(set(differ)) if n not in lack and n not in extra_names]
        rest = [n for n in same]
        random.shuffle(rest)
        rest = [n for n in rest if n not in chosen]
        chosen += sorted(rest[: max(0, want - len(chosen))])
        for e in chosen + variants(pev, sorted(rest[:3])):
            table.append((cpuid, kind, e))
        counts.append("%s %s: perf %d events (%d with terms beyond event/umask/cmask/inv/edge/any), "
                      "same name %d, names differ %d, libpfm4 lacks %d, tested %d"
                      % (cpuid, what, len(pev), len(pev) - len(plain), len(same),
                         len(set(differ)), len(lack), len(chosen) + 15))
    with open(os.path.join(ROOT, "src/lib/event/pfm_names.h"), "w") as f:
        f.write("/* generated by tests/interop/event/vendor_gen.py from perf 6.1 and libpfm4 4.13:\n"
                " * {libpfm4 table, perf's name, libpfm4's name} of the same encoding */\n")
        for (t, n), pfm in sorted(pairs.items()):
            f.write('{"%s", "%s", "%s"},\n' % (t, n, pfm))
    with open(os.path.join(ROOT, "tests/data/vendor/perf_only.tsv"), "w") as f:
        f.write("# perf 6.1's vendor events (plain terms) that no libpfm4 4.13 event encodes: cpuid pmu name config\n")
        for r in perf_only:
            f.write("\t".join(r) + "\n")
    with open(os.path.join(ROOT, "tests/data/vendor/hybrid_extra.tsv"), "w") as f:
        f.write("# events perfev also makes on a PMU where perf 6.1 has none (libpfm4 4.13 has no\n"
                "# Alder Lake table; Tremont's stands in for Gracemont): cpuid name extra-pmus\n")
        for r in hybrid_extra:
            f.write("\t".join(r) + "\n")
    with open(os.path.join(ROOT, "tests/data/vendor/events.tsv"), "w") as f:
        f.write("# generated by tests/interop/event/vendor_gen.py: cpuid, core PMU kind, event string, then for\n"
                "# each core PMU it lands on the attr perf 6.1 built (pmu:type:config:config1:"
                "exclude_user:exclude_kernel:exclude_hv:precise_ip)\n")
        by_model = {}
        for cpuid, kind, e in table:
            by_model.setdefault((cpuid, kind), []).append(e)
        for (cpuid, kind), evs in by_model.items():
            # perf prints "NAME -> PMU/terms/" for each PMU a name lands on (not for
            # the PMU/NAME,terms/ form, which lands on its PMU alone), then the open
            # attempts of each event in the same order.
            out = in_ns_all(os.path.join(tmp, kind), cpuid,
                            "perf stat -vv -e '%s' -- true" % ",".join(evs))
            groups = first_attempts(out)
            arrows = [(n.lower(), p) for n, p in re.findall(r"^(\S+) -> (cpu|cpu_core|cpu_atom)/", out, re.M)]
            i = j = 0
            for e in evs:
                got = []
                base = e.split("/")[0].split(":")[0].lower()
                if e.split("/")[0] in ("cpu", "cpu_core", "cpu_atom"):
                    k = 1
                else:
                    seen = set()  # one arrow per PMU the name lands on
                    while j < len(arrows) and arrows[j][0] == base and arrows[j][1] not in seen:
                        seen.add(arrows[j][1])
                        j += 1
                    k = len(seen)
                for a in groups[i:i + k]:
                    p = {4: "cpu_core" if kind == "hybrid" else "cpu", 8: "cpu_atom"}[a["type"]]
                    got.append("%s:%d:%#x:%#x:%d:%d:%d:%d" % (p, a["type"], a["config"], a["config1"],
                               a["exclude_user"], a["exclude_kernel"], a["exclude_hv"], a["precise_ip"]))
                i += k
                if not got:
                    sys.exit("no attr from perf for %s %s (next: %s) at %d of %s" % (cpuid, e, arrows[j:j + 3], evs.index(e), [x for x in evs if x.split("/")[0].split(":")[0].lower() == base]))
                f.write("\t".join([cpuid, kind, e] + got) + "\n")
    print("\n".join(counts), file=sys.stderr)


main()
