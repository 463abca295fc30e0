"""Prototype behind the small-sample scores of JointSignFlip (BENCHMARKS.md, "Slow boots at 8, 12
and 16 pairs"): the candidate per-metric scores of the joint sign-flip family (maxT over flips of
whole pairs) on calibrate-like scenarios, against the pooled Mann-Whitney rule. Written
independently of the Java code; its own seeds (11-13). Prints per scenario and pair count
"rule:A/A/power +-5%/power +-10%" in percent.

Run: python3 small_sample_scores_prototype.py SEED EXPERIMENTS RULES SCENARIOS
e.g. python3 small_sample_scores_prototype.py 13 400 current,pnorm,combo,mw slowboot,slowboot30
(current: winsorized log-ratios; huberC: |d| clipped at C median |d|; prank: pooled ranks;
pnorm: van der Waerden scores of the pooled ranks, the rule adopted; combo: maxT over current
and pnorm; mw: pooled Mann-Whitney per metric at 0.05.)"""
import numpy as np, sys, itertools
from scipy.stats import mannwhitneyu, rankdata
rng=np.random.default_rng(int(sys.argv[1]) if len(sys.argv)>1 else 11)
def patterns(n):
    P=1<<(n-1); g=np.arange(P)[:,None]; bits=(g>>np.arange(n-1))&1
    return np.hstack([np.ones((P,1)),1-2*bits])
PAT={n:patterns(n) for n in (8,12,16)}
def gen(sc,E,n,eff,M=1):
    # returns logA, logC shape (E,M,n)
    if sc in('slowboot','slowboot30'):
        p,f=(0.06,np.log(1.4)) if sc=='slowboot' else (0.30,np.log(1.15))
        def boot():
            x=0.05*rng.standard_normal((E,M,n))
            slow=rng.random((E,1,n))<p
            return x-f*slow
        return boot(), boot()+np.log1p(eff)*(np.arange(M)==0)[None,:,None]
    common=0.04*rng.standard_normal((E,1,n))
    def boot():
        sh=0.02*rng.standard_normal((E,1,n))
        if sc=='outliers':
            s=rng.random((E,1,n))<0.05; sh=sh-s*np.log1p(0.2+0.3*rng.random((E,1,n)))
        if sc=='bimodal':
            sh=sh-0.12*(rng.random((E,1,n))<0.3)
        return common+sh+0.03*rng.standard_normal((E,M,n))
    return boot(), boot()+np.log1p(eff)*(np.arange(M)==0)[None,:,None]
def wins(d):
    n=d.shape[-1];k=n//5
    a=np.sort(np.abs(d),-1); cap=a[...,n-1-k:n-k]
    return np.clip(d,-cap,cap)
def huber(c):
    def f(d):
        cap=c*np.median(np.abs(d),-1,keepdims=True)
        return np.clip(d,-cap,cap)
    return f
def scores(rule,A,C):
    d=C-A
    if rule=='current': return wins(d)
    if rule.startswith('huber'): return huber(float(rule[5:]))(d)
    n=d.shape[-1]
    R=rankdata(np.concatenate([A,C],-1),axis=-1)
    if rule=='prank': return R[...,n:]-R[...,:n]
    if rule=='pnorm':
        from scipy.stats import norm
        Z=norm.ppf(R/(2*n+1)); return Z[...,n:]-Z[...,:n]
    if rule=='pwins':  # pooled values winsorized (by pooled median +- c MAD), then d
        X=np.concatenate([A,C],-1); med=np.median(X,-1,keepdims=True); mad=np.median(np.abs(X-med),-1,keepdims=True)
        X=np.clip(X,med-2.5*mad*1.4826,med+2.5*mad*1.4826); return X[...,n:]-X[...,:n]
def maxT_reject(w, scale, alpha=0.05):
    # w (E,M,n); scale (E,M); returns rejected flags (E,M) and sign
    E,M,n=w.shape; P=PAT[n]
    T=np.abs(np.einsum('emn,pn->emp',w,P))/scale[...,None]
    mx=T.max(1); obs=T[...,0]
    adj=(mx[:,None,:]>=obs[...,None]*(1-1e-9)).mean(-1)
    return adj<=alpha, np.sign(w.sum(-1))
def run(rule,A,C):
    if rule=='mw':
        p=mannwhitneyu(C,A,axis=-1,method='exact' if A.shape[-1]<=20 else 'asymptotic').pvalue
        return p<0.05, np.sign(np.median(C,-1)-np.median(A,-1))
    if rule=='mwholm':
        p=mannwhitneyu(C,A,axis=-1).pvalue; M=p.shape[1]
        return p<0.05/M, np.sign(np.median(C,-1)-np.median(A,-1))  # Bonferroni approx
    if rule=='combo':
        X=np.concatenate([A,C],-1); sc=X.std(-1,ddof=1)
        w1=scores('current',A,C); w2=scores('pnorm',A,C)
        E,M,n=w1.shape
        w=np.concatenate([w1/sc[...,None],w2],1)
        rej,s=maxT_reject(w,np.ones((E,2*M)))
        return rej[:,:M]|rej[:,M:], np.sign(w1.sum(-1))
    w=scores(rule,A,C)
    if rule in('prank','pnorm'): scale=np.ones(w.shape[:2])
    else:
        X=np.concatenate([A,C],-1); scale=X.std(-1,ddof=1)
    return maxT_reject(w,scale)
rules=sys.argv[3].split(',') if len(sys.argv)>3 else ['current','huber2','huber3','prank','pnorm','pwins','mw']
E=int(sys.argv[2]) if len(sys.argv)>2 else 600
scs=sys.argv[4].split(',') if len(sys.argv)>4 else ['slowboot','slowboot30','lognormal','outliers','bimodal']
for sc in scs:
  M=1 if sc.startswith('slow') else 4
  for n in (8,12,16):
    res={}
    for eff in (0,0.05,0.10):
        sgn=np.where(np.arange(E)%2==0,1,-1)
        A,C=gen(sc,E,n,0.0,M)
        C[:,0,:]+=np.log1p(eff*sgn)[:,None]
        for r in rules:
            rej,s=run(r,A,C)
            if eff==0: v=rej.any(1).mean()
            else: v=(rej[:,0]&(s[:,0]==sgn)).mean()
            res.setdefault(r,[]).append(v)
    print(sc,n,' '.join(f"{r}:{a*100:.1f}/{b*100:.1f}/{c*100:.1f}" for r,(a,b,c) in res.items()),flush=True)
