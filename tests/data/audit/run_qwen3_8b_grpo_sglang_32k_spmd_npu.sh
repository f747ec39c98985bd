# Shape of examples/grpo_trainer/run_qwen3_8b_grpo_sglang_32k_spmd_npu.sh (verl v0.6.0-v0.7.1)
set -x
export HCCL_CONNECT_TIMEOUT=1500
export HCCL_HOST_SOCKET_PORT_RANGE=60000-60050
export HCCL_NPU_SOCKET_PORT_RANGE=61000-61050

sp_size=4
num_gpu=8
tp_size=4
max_prompt_length=$((1024 * 2))
max_response_length=$((1024 * 32))

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_batch_size=32 \
    data.max_prompt_length=${max_prompt_length} \
    data.max_response_length=${max_response_length} \
    actor_rollout_ref.model.path=Qwen/Qwen3-8B \
    actor_rollout_ref.actor.ppo_mini_batch_size=32 \
    actor_rollout_ref.actor.use_dynamic_bsz=True \
    actor_rollout_ref.rollout.tensor_model_parallel_size=$tp_size \
    actor_rollout_ref.rollout.name=sglang \
    +actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend="ascend" \
    actor_rollout_ref.rollout.n=8 \
    actor_rollout_ref.nccl_timeout=3600 \
    trainer.device=npu \
    trainer.n_gpus_per_node=$num_gpu \
    trainer.nnodes=1 \
    actor_rollout_ref.actor.ulysses_sequence_parallel_size=${sp_size} \
    actor_rollout_ref.ref.ulysses_sequence_parallel_size=${sp_size} $@
