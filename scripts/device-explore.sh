#!/usr/bin/env bash
# One-off survey of a GPU machine: what the tools and headers there report.
exec > >(tee "$OUT/explore.txt") 2>&1
set -x
nproc; free -g; uname -a; cat /etc/os-release | head -3
lscpu | head -30
nvidia-smi
nvidia-smi topo -m
nvidia-smi topo -p2p r; nvidia-smi topo -p2p w; nvidia-smi topo -p2p n
nvidia-smi nvlink -s
nvidia-smi nvlink -c | head -40
nvidia-smi -q | grep -iE -A3 'PCIe Generation|Link Width|Bus Id|Clocks$|Max Clocks' | head -80
nvidia-smi topo -C 2>/dev/null; nvidia-smi topo -M 2>/dev/null
which lstopo lstopo-no-graphics hwloc-ls numactl lspci cmake g++ nvcc
ls /usr/include/hwloc.h /usr/include/CLI/CLI.hpp /usr/include/nlohmann/json.hpp /usr/include/gtest/gtest.h /usr/lib/x86_64-linux-gnu/libhwloc* /usr/lib/x86_64-linux-gnu/libgtest* /usr/src/googletest 2>&1
grep -m1 HWLOC_API_VERSION /usr/include/hwloc.h; grep -rm1 'CLI11_VERSION ' /usr/include/CLI/ ; pkg-config --modversion hwloc
dpkg -l | grep -iE 'hwloc|cli11|nlohmann|gtest|googletest|libomp|libgomp'
cmake --version | head -1; g++ --version | head -1; nvcc --version | tail -1
ls /usr/local/nvidia/lib64 2>/dev/null | head; ldconfig -p | grep -E 'nvidia-ml|libcuda\.'
ls /sys/devices/system/node/; cat /sys/devices/system/node/node*/distance 2>/dev/null
lspci -tv 2>/dev/null | head -60
for d in /sys/bus/pci/devices/*; do c=$(cat $d/class); case $c in 0x0302*|0x0300*|0x0680*) echo "$d $c numa=$(cat $d/numa_node) speed=$(cat $d/current_link_speed 2>/dev/null) width=$(cat $d/current_link_width 2>/dev/null) max=$(cat $d/max_link_speed 2>/dev/null)x$(cat $d/max_link_width 2>/dev/null)"; readlink -f $d;; esac; done
ls /sys/class/nvme /sys/class/net /sys/block 2>&1
python3 - <<'PY'
import pynvml as n
n.nvmlInit()
print("driver", n.nvmlSystemGetDriverVersion(), "nvml", n.nvmlSystemGetNVMLVersion(), "cuda", n.nvmlSystemGetCudaDriverVersion())
c=n.nvmlDeviceGetCount()
hs=[n.nvmlDeviceGetHandleByIndex(i) for i in range(c)]
for i,h in enumerate(hs):
    p=n.nvmlDeviceGetPciInfo(h)
    print(i, n.nvmlDeviceGetName(h), n.nvmlDeviceGetUUID(h), p.busId, hex(p.pciDeviceId))
    print(" pcie cur", n.nvmlDeviceGetCurrPcieLinkGeneration(h), n.nvmlDeviceGetCurrPcieLinkWidth(h), "max", n.nvmlDeviceGetMaxPcieLinkGeneration(h), n.nvmlDeviceGetMaxPcieLinkWidth(h))
    try: print(" gpu max pcie gen", n.nvmlDeviceGetGpuMaxPcieLinkGeneration(h))
    except Exception as e: print(" err", e)
    try: print(" cpu affinity", [hex(x) for x in n.nvmlDeviceGetCpuAffinity(h, 4)])
    except Exception as e: print(" err", e)
    try: print(" numa", n.nvmlDeviceGetNumaNodeId(h))
    except Exception as e: print(" numa err", e)
    print(" clocks sm", n.nvmlDeviceGetClockInfo(h,1), "mem", n.nvmlDeviceGetClockInfo(h,2), "maxsm", n.nvmlDeviceGetMaxClockInfo(h,1))
    for l in range(18):
        try:
            st=n.nvmlDeviceGetNvLinkState(h,l); v=n.nvmlDeviceGetNvLinkVersion(h,l); r=n.nvmlDeviceGetNvLinkRemotePciInfo(h,l)
            try: t=n.nvmlDeviceGetNvLinkRemoteDeviceType(h,l)
            except Exception as e: t=str(e)
            print("  link",l,"state",st,"ver",v,"remote",r.busId,"type",t)
        except Exception as e: print("  link",l,"err",e)
for i in range(c):
    for j in range(c):
        if i==j: continue
        s=[]
        for k in range(5):
            try: s.append(n.nvmlDeviceGetP2PStatus(hs[i],hs[j],k))
            except Exception as e: s.append(str(e))
        print("p2p",i,j,s)
        try: print(" common ancestor", n.nvmlDeviceGetTopologyCommonAncestor(hs[i],hs[j]))
        except Exception as e: print(" err", e)
PY
which lstopo-no-graphics && lstopo-no-graphics --of xml > "$OUT/lstopo.xml"
true
