#!/usr/bin/env bash
# Shape of the multi-node examples: ray job submit -- python3 -m ..., a group with a package.
ray job submit --address="http://127.0.0.1:8265" \
    --runtime-env=verl/trainer/runtime_env.yaml \
    --no-wait \
    -- \
    python3 -m verl.trainer.main_ppo \
    actor@actor_rollout_ref.actor=megatron_actor \
    actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2 \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
    trainer.nnodes=2 \
    trainer.n_gpus_per_node=8 2>&1 | tee verl_demo.log
