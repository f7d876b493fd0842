#!/usr/bin/env python3
"""Reads `protoc --decode perftools.profiles.Profile` text from stdin and
prints what the tests check, one "key value" per line: totals of the sample
values, counts of the tables, and whether every reference resolves."""
import sys


def parse(lines):
    root = {}
    stack = [root]
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line.endswith("{"):
            node = {}
            stack[-1].setdefault(line[:-1].strip(), []).append(node)
            stack.append(node)
        elif line == "}":
            stack.pop()
        else:
            key, _, val = line.partition(":")
            val = val.strip()
            if val.startswith('"'):
                val = bytes(val[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")
            else:
                val = int(val) if val.lstrip("-").isdigit() else val
            stack[-1].setdefault(key.strip(), []).append(val)
    return root


p = parse(sys.stdin)
strings = p.get("string_table", [])
s = lambda i: strings[i] if isinstance(i, int) and 0 <= i < len(strings) else "<bad>"
vt = [(s(v.get("type", [0])[0]), s(v.get("unit", [0])[0])) for v in p.get("sample_type", [])]
print("sample_types", ",".join("%s/%s" % t for t in vt))
pt = p.get("period_type", [{}])[0]
print("period_type %s/%s" % (s(pt.get("type", [0])[0]), s(pt.get("unit", [0])[0])))
print("period", p.get("period", [0])[0])
print("string0_empty", int(bool(strings) and strings[0] == ""))
samples = p.get("sample", [])
tot = [0] * len(vt)
for smp in samples:
    for i, v in enumerate(smp.get("value", [])):
        tot[i] += v
print("samples", len(samples))
for i, t in enumerate(tot):
    print("total%d" % i, t)
funcs = {f["id"][0]: f for f in p.get("function", [])}
locs = {l["id"][0]: l for l in p.get("location", [])}
maps = {m["id"][0]: m for m in p.get("mapping", [])}
bad = 0
for smp in samples:
    for lid in smp.get("location_id", []):
        bad += lid not in locs
for l in locs.values():
    bad += l.get("mapping_id", [0])[0] not in maps and l.get("mapping_id", [0])[0] != 0
    for ln in l.get("line", []):
        bad += ln.get("function_id", [0])[0] not in funcs
print("bad_refs", bad)
print("locations", len(locs))
print("functions", len(funcs))
print("mappings", len(maps))
print("inline_locations", sum(1 for l in locs.values() if len(l.get("line", [])) > 1))
names = sorted(s(f.get("name", [0])[0]) for f in funcs.values())
print("function_names", ",".join(names))
print("build_ids", ",".join(s(m.get("build_id", [0])[0]) for m in maps.values()))
labels = set()
for smp in samples:
    for lb in smp.get("label", []):
        labels.add(s(lb.get("key", [0])[0]))
print("label_keys", ",".join(sorted(labels)))
# the leaf (location_id[0]) names of the sample with the most samples
best = max(samples, key=lambda x: x.get("value", [0])[0], default=None)
if best:
    leaf = locs[best["location_id"][0]]
    print("top_leaf", s(funcs[leaf["line"][0]["function_id"][0]]["name"][0]), best["value"][0])
