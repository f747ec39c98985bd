# A 4-rank gloo job that saves a torch.distributed.checkpoint (DCP) with the stock FileSystemWriter.
import os, torch, torch.distributed as dist
import torch.distributed.checkpoint as dcp
dist.init_process_group("gloo")
sd = {f"w{dist.get_rank()}": torch.ones(1 << 16)}  # one shard per rank (a replicated key is written by rank 0 only)
dcp.save(sd, checkpoint_id=os.environ["CKPT"])
dist.destroy_process_group()
