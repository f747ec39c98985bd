# Shape of examples/tuning/70b/qwen2-70b_grpo_32_h20_fsdp_vllm.sh (volcengine HEAD):
# data.train_files=$data_path (never defined) and actor_rollout_ref.model.path=model_path (missing $).
set -x

model_path=Qwen/Qwen2-72B-Instruct
test_path=$HOME/data/gsm8k/test.parquet

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files=$data_path \
    data.val_files=$test_path \
    data.train_batch_size=128 \
    actor_rollout_ref.model.path=model_path \
    actor_rollout_ref.actor.ppo_mini_batch_size=32 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \
    actor_rollout_ref.actor.fsdp_config.param_offload=True \
    actor_rollout_ref.actor.fsdp_config.optimizer_offload=True \
    actor_rollout_ref.rollout.tensor_model_parallel_size=16 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    actor_rollout_ref.rollout.n=5 \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=4 $@
