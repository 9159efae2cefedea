import json,sys,glob,re,time
sys.path.insert(0,'/work/main')
from pathlib import Path
from coach.llm import ChatModel, LlmOptions
from coach.analysis.asking import put_forward
model=sys.argv[1]; lo,hi=int(sys.argv[2]),int(sys.argv[3]); variant=sys.argv[4]
llm=ChatModel.load(LlmOptions(model=model,n_ctx=4096))
Q={'a':"Does the speaker ask the listeners to approve, fund, vote for, sign up for or take part in something specific? Answer yes or no.",
   'b':"Is the speaker asking this audience for a decision, money, approval or their help with a specific plan? Answer yes or no."}[variant]
out=[]; t0=time.time()
for n in range(lo,hi+1):
    for f in sorted(glob.glob(f'/work/main/bench/data/talks/heard/sealed{n}-*.txt')):
        stem=Path(f).stem; num=int(stem.split('-')[1])
        kind='proposal' if num<=5 else 'report' if num<=8 else 'other'
        t=Path(f).read_text()
        p,_=llm.choice_probs([{"role":"system","content":"You read the transcript of a talk and answer a question about it."},
                             {"role":"user","content":f"Transcript:\n{t}\n\n{Q}"}],["yes","no"])
        out.append(dict(talk=stem,kind=kind,p=p,regex=put_forward(t) is not None))
        print(stem[:40],kind,round(p,3),out[-1]['regex'],flush=True)
print('s/talk',(time.time()-t0)/len(out))
json.dump(out,open(f'/tmp/cls_{model[-14:]}_{variant}_{lo}_{hi}.json','w'))
