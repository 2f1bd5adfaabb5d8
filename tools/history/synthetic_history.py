#!/usr/bin/env python3
"""Synthetic nightly history for `archbench history`'s benchmark and tests: RUNNERS runners x NIGHTS nights of a
run of OPERATORS operators, made from a real run file (its schema and fields; suites/fixtures/run_h200_excerpt.json),
with known injected steps. Each series has its own base time, log-normal noise (sigma --noise, default 1.5%) and,
on 3% of nights, a throttled-night outlier (+10% to +30%). A fraction --steps of the (runner, operator) series get
one step of +STEP (default 5%) at a random night; truth.json lists them. Every night has its own revision, so a
step comes with the revision change that a real one would name.

Usage: synthetic_history.py TEMPLATE.json OUT_DIR [--runners R] [--nights N] [--operators M] [--steps F]
       [--step S] [--noise S] [--seed K]"""
import argparse
import copy
import json
import math
import os
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("template")
    ap.add_argument("out")
    ap.add_argument("--runners", type=int, default=4)
    ap.add_argument("--nights", type=int, default=30)
    ap.add_argument("--operators", type=int, default=30)
    ap.add_argument("--steps", type=float, default=0.2)
    ap.add_argument("--step", type=float, default=0.05)
    ap.add_argument("--noise", type=float, default=0.015)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    template = json.load(open(a.template))
    dev = template["devices"][0]
    base_ops = dev["operators"]
    ops = []
    for i in range(a.operators):
        op = copy.deepcopy(base_ops[i % len(base_ops)])
        if i >= len(base_ops):
            op["id"] = op["id"] + "_x%d" % (i // len(base_ops))
        t = op.get("timing") or {}
        for k in ("samples_ms", "run_medians_ms", "sm_mhz", "event_reasons"):
            if k in t:
                t[k] = []
        ops.append(op)
    dev["operators"] = []  # each night copies the rest of the run, and its operators shallowly: fast at 250 x 365
    os.makedirs(a.out, exist_ok=True)
    truth = []
    for r in range(a.runners):
        uuid = "GPU-%08x-0000-0000-0000-%012x" % (rnd.getrandbits(32), r)
        base = [rnd.uniform(0.01, 5.0) for _ in ops]
        step_at = {}
        for j in range(len(ops)):
            if rnd.random() < a.steps:
                # Where a step can be confirmed: 8 or more runs on each side of it.
                step_at[j] = rnd.randrange(8, a.nights - 7) if a.nights >= 16 else None
                if step_at[j] is not None:
                    truth.append({"runner": uuid, "operator": ops[j]["id"], "night": step_at[j], "step": a.step})
        for n in range(a.nights):
            run = copy.deepcopy(template)
            run["environment"]["host"] = "runner-%d" % r
            run["environment"]["started_at"] = "2026-%02d-%02dT03:00:00Z" % (1 + n // 28, 1 + n % 28)
            run["build"]["git_revision"] = "%07x" % (0x1000000 + n)
            d = run["devices"][0]
            d["device"]["uuid"] = uuid
            new_ops = []
            stepped_tonight = False
            for j, op in enumerate(ops):
                op = dict(op)
                t = op.get("timing")
                if t:
                    t = op["timing"] = dict(t)
                    x = base[j] * math.exp(rnd.gauss(0, a.noise))
                    if rnd.random() < 0.03:
                        x *= rnd.uniform(1.10, 1.30)
                    if j in step_at and step_at[j] is not None and n >= step_at[j]:
                        x *= 1 + a.step
                        stepped_tonight |= n == step_at[j]
                    for k in ("median_ms", "q1_ms", "q3_ms", "min_ms", "max_ms"):
                        t[k] = x
                new_ops.append(op)
            d["operators"] = new_ops
            with open(os.path.join(a.out, "r%03d_n%03d.json" % (r, n)), "w") as f:
                json.dump(run, f)
    with open(os.path.join(a.out, "truth.json"), "w") as f:
        json.dump({"runners": a.runners, "nights": a.nights, "operators": len(ops), "steps": truth}, f, indent=1)


if __name__ == "__main__":
    main()
