A=( a "b c" # x
  $(date) )
A+=(d)
case $1 in
 *) X=1 ;;
esac
python3 -m verl.trainer.main_ppo "${A[@]}" ${A[*]} ${#A[@]} "${@:2}" 2>&1 >> f &> g < h | tee l
