#!/usr/bin/env bash
# Shape of verl 0.9 examples: parameter groups in bash arrays, the engine chosen by a Hydra group.
set -xeuo pipefail
export CUDA_DEVICE_MAX_CONNECTIONS=1

rollout_name="vllm" # sglang or vllm
train_prompt_bsz=128
gsm8k_train_path=$HOME/data/gsm8k/train.parquet
train_files="['$gsm8k_train_path']"

DATA=(
    data.train_files="$train_files"
    data.val_files="$train_files"
    data.train_batch_size=$train_prompt_bsz
    data.truncation='error'
)

MODEL=(
    actor_rollout_ref.model.path=Qwen/Qwen2-7B-Instruct
    # actor_rollout_ref.model.lora.rank=256
)

ACTOR=(
    actor_rollout_ref.actor.optim.lr=1e-6
    actor_rollout_ref.actor.ppo_mini_batch_size=16
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2
    actor_rollout_ref.actor.megatron.tensor_model_parallel_size=4
    +actor_rollout_ref.actor.megatron.override_transformer_config.recompute_method=uniform
)
ROLLOUT=(
    actor_rollout_ref.rollout.name=${rollout_name}
    actor_rollout_ref.rollout.tensor_model_parallel_size=4
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6
    actor_rollout_ref.rollout.n=5
)
REF=(actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4)
TRAINER=(
    trainer.logger='["console"]'
    trainer.n_gpus_per_node=8
    trainer.nnodes=1
)
TRAINER+=(trainer.total_epochs=15)

python3 -m verl.trainer.main_ppo \
    model_engine=megatron \
    algorithm.adv_estimator=grpo \
    "${DATA[@]}" \
    "${MODEL[@]}" \
    "${ACTOR[@]}" \
    "${ROLLOUT[@]}" \
    ${REF[@]} \
    "${TRAINER[@]}" "$@" 2>&1 | tee log_megatron.txt
