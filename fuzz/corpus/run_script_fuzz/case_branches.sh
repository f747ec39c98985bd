#!/usr/bin/env bash
# Shape of scripts that pick a layout with case/if: ncdx audits the branch the defaults select.
set -x
ENGINE=${ENGINE:-vllm}
case "$1" in
    large)
        TP=8
        ;;
    *)
        TP=2
        ;;
esac
if [ "$ENGINE" = "sglang" ]; then
    MEM=0.5
else
    MEM=0.6
fi
for v in NCCL_DEBUG NCCL_IB_HCA; do
    export $v
done
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files=$HOME/data/gsm8k/train.parquet \
    data.train_batch_size=256 \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-3B-Instruct \
    actor_rollout_ref.actor.ppo_mini_batch_size=64 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.rollout.name=$ENGINE \
    actor_rollout_ref.rollout.tensor_model_parallel_size=$TP \
    actor_rollout_ref.rollout.gpu_memory_utilization=$MEM \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8 \
    trainer.n_gpus_per_node=8 trainer.nnodes=1 "${@:2}" > train.log
