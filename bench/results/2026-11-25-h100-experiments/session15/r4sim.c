/* 4-slot buckets, two-choice fill to lf with threshold T: a key goes to b2 only when b1 has at most
   T free slots (T = 0: today's first fit); with T > 0, b1's last free slots are taken when b2 is full.
   Then the deferred keys: 1-move, 2-move, stash (as deep-sim.c). Reports pass sectors per key,
   deferred shares, present/absent find sectors (absent stops at b1 iff b1 has more than T free). */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
static uint64_t s=88172645463325252ull; static inline uint64_t rnd(){ s^=s<<13; s^=s>>7; s^=s<<17; return s; }
#define S 4
static uint32_t *slot; static uint8_t *cnt; static uint32_t *h1,*h2; static uint8_t *inb2;
static int room(uint32_t b){return cnt[b]<S;}
static void put(uint32_t b,uint32_t k){slot[(uint64_t)b*S+cnt[b]++]=k; inb2[k]=(b!=h1[k]);}
static void replace(uint32_t b,int j,uint32_t k){slot[(uint64_t)b*S+j]=k; inb2[k]=(b!=h1[k]);}
int main(int argc,char**argv){
  double lf=atof(argv[1]); int T=atoi(argv[2]);
  uint64_t total=1u<<26; uint64_t B=total/S; uint64_t n=(uint64_t)(lf*total);
  slot=malloc(B*S*4); cnt=calloc(B,1); h1=malloc(n*4); h2=malloc(n*4); inb2=calloc(n,1);
  uint32_t *def=malloc(n*4); uint64_t nd=0; double pass_sectors=0;
  uint64_t ninth[9]={0}, ninthdef[9]={0};
  for(uint64_t i=0;i<n;i++){ h1[i]=rnd()%B; h2[i]=rnd()%B; int z=(int)(i*9/n); ninth[z]++;
    uint32_t a=h1[i], b=h2[i]; int freea=S-cnt[a];
    pass_sectors+=1;
    if(freea>T) { put(a,i); continue; }
    if(a!=b) pass_sectors+=1;
    if(room(b)) put(b,i); else if(freea>0) put(a,i); else { def[nd++]=i; ninthdef[z]++; } }
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
  uint64_t b2keys=0; for(uint64_t i=0;i<n;i++) b2keys+=inb2[i];
  uint64_t probes=1<<22; double absent=0; for(uint64_t i=0;i<probes;i++){ uint32_t a=rnd()%B; absent+=1; if(S-cnt[a]<=T) absent+=1; rnd(); }
  printf("lf %.2f T %d: pass sectors/key %.3f deferred %.4f (one %.4f two %.4f stash %.5f) keys in b2 %.3f present-find sectors %.3f absent-find sectors %.3f | deferred by ninth:",
    lf,T,pass_sectors/n,(double)nd/n,(double)one/n,(double)two/n,(double)stash/n,(double)b2keys/n,1.0+(double)b2keys/n,absent/probes);
  for(int z=0;z<9;z++) printf(" %.3f",(double)ninthdef[z]/ninth[z]); printf("\n");
  return 0;}
