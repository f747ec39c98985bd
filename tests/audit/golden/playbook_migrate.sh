exit 0
#!/usr/bin/env bash
# ncdx audit --migrate: overrides and env for verl 0.7.1 (fsdp trainer config)

# changes
#   dropped trainer.dist_backend=nccl: no such key in any verl version
#   model.tensor_parallel_size=8 -> actor_rollout_ref.rollout.tensor_model_parallel_size=8 (invented key)
#   +actor_rollout_ref.nccl_timeout=1200 -> actor_rollout_ref.nccl_timeout=1200 (the key exists in verl 0.7.1; '+' would fail)

python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.tensor_model_parallel_size=8 \
    actor_rollout_ref.nccl_timeout=1200 \
    actor_rollout_ref.rollout.name=vllm "$@"
