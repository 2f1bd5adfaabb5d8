#!/usr/bin/env python3
"""Reads ci/fleet.json and prints GitHub Actions job matrices (as `name=JSON` lines for
$GITHUB_OUTPUT), or writes one variant's devices as a fleet file for `archbench inspect --fleet`.

  fleet_matrix.py FLEET                       -> build={"include":[{variant, arch_list, runner, container}]}
                                                 gpu={"include":[{label, device, driver, variant}]}
  fleet_matrix.py FLEET --variant V --out F   -> F: the fleet file of the devices whose leg runs build V
Exit 2 with a message when the file is malformed (a device without label or variant, an unknown variant).
"""
import json, sys

def load(path):
    try:
        fleet = json.load(open(path))
        variants, devices = fleet["variants"], fleet["devices"]
        for d in devices:
            if not d.get("label") or d.get("variant") not in variants:
                raise ValueError(f"device {d!r} needs a label and a variant out of {sorted(variants)}")
        for name, v in variants.items():
            if not v.get("arch_list") or not v.get("runner"):
                raise ValueError(f"variant {name!r} needs arch_list and runner")
        return variants, devices
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"fleet_matrix.py: {path}: {e}")

def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    variants, devices = load(args[0])
    if "--variant" in args:
        v = args[args.index("--variant") + 1]
        out = args[args.index("--out") + 1]
        mine = [{k: d[k] for k in ("label", "device", "cc", "driver") if k in d} for d in devices if d["variant"] == v]
        json.dump({"devices": mine}, open(out, "w"), indent=1)
        print(f"{out}: {len(mine)} device(s) of variant {v}")
        return
    build = [{"variant": n, "arch_list": v["arch_list"], "runner": v["runner"], "container": v.get("container", "")}
             for n, v in variants.items()]
    gpu = [{"label": d["label"], "device": d.get("device", d.get("cc", "")), "driver": d.get("driver", ""),
            "variant": d["variant"]} for d in devices]
    print("build=" + json.dumps({"include": build}))
    print("gpu=" + json.dumps({"include": gpu}))

if __name__ == "__main__":
    main()
