#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
static uint64_t s=88172645463325252ull; static inline uint64_t rnd(){ s^=s<<13; s^=s>>7; s^=s<<17; return s; }
int main(int argc,char**argv){
  int H=atoi(argv[1]); /* slots per half */ double lf=atof(argv[2]); int rot=atoi(argv[3]);
  uint64_t slots=1<<24; uint64_t B=slots/(2*H); uint64_t n=(uint64_t)(lf*slots);
  uint8_t *cnt=calloc(2*B,1); uint64_t deferred=0, pos[4]={0};
  for(uint64_t i=0;i<n;i++){ uint64_t b1=rnd()%B, b2=rnd()%B; int p=rot? (int)(rnd()&1):0;
    uint64_t c[4]={2*b1+p,2*b1+(p^1),2*b2+p,2*b2+(p^1)}; int placed=0;
    for(int j=0;j<4&&!placed;j++) if(cnt[c[j]]<H){cnt[c[j]]++;pos[j]++;placed=1;}
    if(!placed) deferred++; }
  /* absent finds: sectors (halves) read, buckets (DRAM fetches) */
  double hs=0, bk=0; uint64_t m=1<<22;
  for(uint64_t i=0;i<m;i++){ uint64_t b1=rnd()%B, b2=rnd()%B; int p=rot?(int)(rnd()&1):0;
    uint64_t c[4]={2*b1+p,2*b1+(p^1),2*b2+p,2*b2+(p^1)};
    for(int j=0;j<4;j++){ hs++; if(j==0||j==2) bk++; if(cnt[c[j]]<H) break; } }
  uint64_t pl=n-deferred;
  printf("H=%d lf=%.2f rot=%d deferred %.4f | present: %.3f %.3f %.3f %.3f -> halves %.3f buckets %.3f | absent: halves %.3f buckets %.3f\n",H,lf,rot,(double)deferred/n,
    (double)pos[0]/pl,(double)pos[1]/pl,(double)pos[2]/pl,(double)pos[3]/pl,(pos[0]+2.0*pos[1]+3.0*pos[2]+4.0*pos[3])/pl,(pos[0]+pos[1]+2.0*pos[2]+2.0*pos[3])/pl,hs/m,bk/m);
}
