# Golden tests of `ncdx topo` over the real matrices and XML files in tests/data/topo/.
set(topo_data ${CMAKE_CURRENT_LIST_DIR}/../data/topo)
set(topo_golden ${CMAKE_CURRENT_LIST_DIR}/golden)
set(topo_schema ${CMAKE_SOURCE_DIR}/docs/schema/topo.schema.json)

function(ncdx_topo_golden name expect)
  ncdx_golden(topo ${name} ${expect} WORKDIR ${topo_data} GOLDEN_DIR ${topo_golden} SCHEMA ${topo_schema} ${ARGN})
endfunction()

foreach(m mlengineering-a100-nv12 slurmv4-aihub0007-h100-12nic mlengineering-2gpu-phb mlengineering-2gpu-nv2
          eugene-dgxh100-nv18-abbrev eugene-8xa40-nv4-pairs-abbrev gogpuallocator17-8x4090-sys)
  ncdx_topo_golden(smi-${m} 0 ARGS topo --smi smi/${m}.txt)
endforeach()
ncdx_topo_golden(smi-malformed-glued 65 ARGS topo --smi smi/slurmv4-aihub0008-h100-12nic-malformed.txt)
ncdx_topo_golden(smi-truncated-no-header 65 ARGS topo --smi smi/vllm16336-b200-gpu2-nvlink-missing.txt)
ncdx_topo_golden(smi-stdin 0 STDIN ${topo_data}/smi/mlengineering-2gpu-nv2.txt ARGS topo --smi -)
ncdx_topo_golden(pick4-h100-12nic 0 ARGS topo --smi smi/slurmv4-aihub0007-h100-12nic.txt --pick 4)
# At 80 columns (#13 §3): the 20-device matrix in blocks of columns, affinity as its own table,
# comments above the export lines, binding fields on continuation lines.
ncdx_topo_golden(pick4-h100-12nic.80cols 0 ENV GOLDEN_COLUMNS=80 ARGS topo --smi smi/slurmv4-aihub0007-h100-12nic.txt --pick 4)
ncdx_topo_golden(xml-p5-pick.80cols 1 ENV GOLDEN_COLUMNS=80 ARGS topo --xml xml/aws-ofi-nccl_p5.48xl-topo.xml --pick 8)
ncdx_topo_golden(pick4-a40-pairs 0 ARGS topo --smi smi/eugene-8xa40-nv4-pairs-abbrev.txt --pick 4)
ncdx_topo_golden(pick8-a100-two-numa 1 ARGS topo --smi smi/mlengineering-a100-nv12.txt --pick 8)
ncdx_topo_golden(pick2-4090-sys 1 ARGS topo --smi smi/gogpuallocator17-8x4090-sys.txt --pick 2)
ncdx_topo_golden(pick-too-many 64 ARGS topo --smi smi/mlengineering-2gpu-nv2.txt --pick 3)
ncdx_topo_golden(json-pick-h100 0 JSON ARGS topo --json --smi smi/slurmv4-aihub0007-h100-12nic.txt --pick 2)
ncdx_topo_golden(json-abbrev 0 JSON ARGS topo --json --smi smi/eugene-8xa40-nv4-pairs-abbrev.txt)
foreach(x aws-ofi-nccl_p4d-24xl-topo aws-ofi-nccl_p4de-24xl-topo aws-ofi-nccl_p5.48xl-topo
          azure_azhpc-images_ndv2-topo azure_azhpc-images_ndv4-topo azure_azhpc-images_ndv5-topo
          azure_azhpc-images_ncv4-topo)
  ncdx_topo_golden(xml-${x} 0 ARGS topo --xml xml/${x}.xml)
endforeach()
ncdx_topo_golden(json-xml-p5-pick 1 JSON ARGS topo --json --xml xml/aws-ofi-nccl_p5.48xl-topo.xml --pick 8)
foreach(x aws-ofi-nccl_g5.48xl-topo aws-ofi-nccl_p5.48xl-topo_2023 azure_azhpc-images_ncv4-graph)
  ncdx_topo_golden(xml-${x} 65 ARGS topo --xml xml/${x}.xml)
endforeach()
ncdx_topo_golden(missing-file 66 ARGS topo --smi does-not-exist.txt)
ncdx_topo_golden(two-inputs 64 ARGS topo --smi smi/mlengineering-2gpu-nv2.txt --xml xml/aws-ofi-nccl_p4d-24xl-topo.xml)
ncdx_topo_golden(no-driver 66 NOSTDERR ARGS topo)  # message differs on a GPU machine
ncdx_topo_golden(from-json-bad 65 ARGS topo --from smi/mlengineering-2gpu-nv2.txt)
ncdx_topo_golden(from-snapshot-pick 0 ARGS topo --from snapshot-h100-12nic.json --pick 2)
ncdx_topo_golden(from-doctor-snapshot-pick 0 ARGS topo --from doctor-dgx-h100-snapshot.json --pick 4)
