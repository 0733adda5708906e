#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
/* 4-slot buckets, two-choice first fit (phase 1), then the deferred keys: a 1-move search,
   then a 2-move search, then the stash. Keys are indices; their buckets are stored. */
static uint64_t s=88172645463325252ull; static inline uint64_t rnd(){ s^=s<<13; s^=s>>7; s^=s<<17; return s; }
#define S 4
static uint32_t *slot; static uint8_t *cnt; static uint32_t *h1,*h2;
static int room(uint32_t b){return cnt[b]<S;}
static void put(uint32_t b,uint32_t k){slot[(uint64_t)b*S+cnt[b]++]=k;}
static void replace(uint32_t b,int j,uint32_t k){slot[(uint64_t)b*S+j]=k;}
int main(int argc,char**argv){
  double lf=atof(argv[1]); double stashfrac=atof(argv[2]); int keep_total=atoi(argv[3]);
  uint64_t total=1u<<26; /* slots incl. stash when keep_total */
  uint64_t B = keep_total ? (uint64_t)(total/S/(1+stashfrac)) : total/S;
  uint64_t n=(uint64_t)(lf*total);
  slot=malloc(B*S*4); cnt=calloc(B,1); h1=malloc(n*4); h2=malloc(n*4);
  uint32_t *def=malloc(n*4); uint64_t nd=0;
  for(uint64_t i=0;i<n;i++){ h1[i]=rnd()%B; h2[i]=rnd()%B;
    if(room(h1[i])) put(h1[i],i); else if(room(h2[i])) put(h2[i],i); else def[nd++]=i; }
  uint64_t one=0,two=0,stash=0;
  for(uint64_t d=0;d<nd;d++){ uint32_t k=def[d]; uint32_t bs[2]={h1[k],h2[k]}; int done=0;
    if(room(bs[0])){put(bs[0],k);one++;continue;} if(room(bs[1])){put(bs[1],k);one++;continue;}
    for(int x=0;x<2&&!done;x++) for(int j=0;j<S&&!done;j++){ uint32_t v=slot[(uint64_t)bs[x]*S+j];
      if(h1[v]==bs[x] && room(h2[v])){ put(h2[v],v); replace(bs[x],j,k); one++; done=1; } }
    for(int x=0;x<2&&!done;x++) for(int j=0;j<S&&!done;j++){ uint32_t v=slot[(uint64_t)bs[x]*S+j];
      if(h1[v]!=bs[x]) continue; uint32_t c=h2[v];
      for(int jj=0;jj<S&&!done;jj++){ uint32_t w=slot[(uint64_t)c*S+jj];
        if(h1[w]==c && room(h2[w])){ put(h2[w],w); replace(c,jj,v); replace(bs[x],j,k); two++; done=1; } } }
    if(!done) stash++; }
  uint64_t full=0; for(uint64_t b=0;b<B;b++) full+=cnt[b]==S;
  /* absent lookups: fraction whose two random buckets are both full */
  uint64_t both=0, probes=1<<22; for(uint64_t i=0;i<probes;i++){ if(cnt[rnd()%B]==S && cnt[rnd()%B]==S) both++; }
  printf("lf %.3f stashfrac %.3f keep_total %d: B %lu n %lu deferred %.4f one-move %.4f two-move %.4f stash %.5f (%lu keys, stash slots %lu, %.2f full) buckets full %.3f absent both-full %.3f\n",
    lf,stashfrac,keep_total,B,n,(double)nd/n,(double)one/n,(double)two/n,(double)stash/n,stash,(uint64_t)(stashfrac*B*S),(double)stash/(stashfrac*B*S+1e-9),(double)full/B,(double)both/probes);
  return 0;}
