#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
static uint64_t s=88172645463325252ull; static inline uint64_t rnd(){ s^=s<<13; s^=s>>7; s^=s<<17; return s; }
int main(int argc,char**argv){
  int S=atoi(argv[1]); double lf=atof(argv[2]); uint64_t slots=1<<24; uint64_t B=slots/S; uint64_t n=(uint64_t)(lf*slots);
  uint8_t *cnt=calloc(B,1); uint64_t deferred=0, inb2=0, pos[64]={0}, pos2[64]={0};
  for(uint64_t i=0;i<n;i++){ uint64_t b1=rnd()%B, b2=rnd()%B;
    if(cnt[b1]<S){pos[cnt[b1]]++; cnt[b1]++;} else if(cnt[b2]<S){pos2[cnt[b2]]++; cnt[b2]++; inb2++;} else deferred++; }
  uint64_t full=0; for(uint64_t b=0;b<B;b++) full+=cnt[b]==S;
  printf("S=%d lf=%.2f deferred %.4f in b2 %.4f buckets full %.3f | b1 first sector %.3f, b1 later sectors %.3f, b2 first sector %.3f\n",S,lf,(double)deferred/n,(double)inb2/n,(double)full/B,
   0.0+0, 0.0, 0.0);
  double f1=0,f2=0,g1=0; for(int p=0;p<S;p++){ if(p<4) f1+=pos[p]; else f2+=pos[p]; if(p<4) g1+=pos2[p]; }
  printf("   keys: b1 sector0 %.3f, b1 later %.3f, b2 sector0 %.3f, b2 later %.3f\n", f1/n, f2/n, g1/n, (inb2-g1)/n);
  return 0; }
