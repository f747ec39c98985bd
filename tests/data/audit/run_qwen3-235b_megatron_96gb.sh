#!/usr/bin/env bash
# Shape of examples/grpo_trainer/run_qwen3-235b_megatron_96gb.sh (verl v0.6.0-v0.7.1).
# Set on all nodes: CUDA_DEVICE_MAX_CONNECTIONS: "1", NCCL_NVLS_ENABLE: "0", VLLM_USE_V1: 1
set -xeuo pipefail

[ -f "${PWD}/env.sh" ] && source "${PWD}/env.sh"

NNODES=${NNODES:-4}
gen_tp=8
train_tp=${TP:-4}
train_pp=${PP:-8}
EP=${EP:-4}
ETP=1
CP=1
MODEL_PATH=${MODEL_PATH:-"Qwen/Qwen3-235B-A22B"}

python3 -m verl.trainer.main_ppo \
    --config-path=config \
    --config-name='ppo_megatron_trainer.yaml' \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=512 \
    actor_rollout_ref.model.path="${MODEL_PATH}" \
    actor_rollout_ref.actor.ppo_mini_batch_size=128 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \
    actor_rollout_ref.actor.megatron.pipeline_model_parallel_size=${train_pp} \
    actor_rollout_ref.actor.megatron.tensor_model_parallel_size=${train_tp} \
    actor_rollout_ref.actor.megatron.expert_model_parallel_size=$EP \
    actor_rollout_ref.actor.megatron.expert_tensor_parallel_size=$ETP \
    actor_rollout_ref.actor.megatron.context_parallel_size=${CP} \
    actor_rollout_ref.actor.megatron.param_offload=True \
    actor_rollout_ref.actor.megatron.grad_offload=True \
    actor_rollout_ref.actor.megatron.optimizer_offload=True \
    actor_rollout_ref.rollout.tensor_model_parallel_size=${gen_tp} \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=8 \
    actor_rollout_ref.nccl_timeout=1200 \
    +actor_rollout_ref.actor.megatron.override_transformer_config.moe_enable_deepep=True \
    trainer.logger=['console','wandb'] \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes="${NNODES}" \
    trainer.total_epochs=1 $@
