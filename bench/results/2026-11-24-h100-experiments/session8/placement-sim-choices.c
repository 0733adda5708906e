#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
static uint64_t s=88172645463325252ull; static inline uint64_t rnd(){ s^=s<<13; s^=s>>7; s^=s<<17; return s; }
int main(int argc,char**argv){
  int S=atoi(argv[1]); double lf=atof(argv[2]); int D=atoi(argv[3]); uint64_t slots=1<<24; uint64_t B=slots/S; uint64_t n=(uint64_t)(lf*slots);
  uint8_t *cnt=calloc(B,1); uint64_t deferred=0, in[8]={0}, reads=0;
  for(uint64_t i=0;i<n;i++){ int placed=0; for(int d=0;d<D;d++){ uint64_t b=rnd()%B; if(!placed){ reads++; if(cnt[b]<S){cnt[b]++; in[d]++; placed=1;} } } if(!placed) deferred++; }
  uint64_t full=0; for(uint64_t b=0;b<B;b++) full+=cnt[b]==S;
  double pf=(double)full/B; double absent=0, pp=1; for(int d=0;d<D;d++){ absent+=pp; pp*=pf; }
  printf("S=%d lf=%.2f D=%d deferred %.4f placed by choice:", S, lf, D, (double)deferred/n); for(int d=0;d<D;d++) printf(" %.3f",(double)in[d]/n);
  printf(" | pass reads/key %.3f | full %.3f | absent find reads %.3f | present find reads %.3f\n", (double)reads/n, pf, absent, (in[0]+2.0*in[1]+3.0*in[2])/(double)(n-deferred));
  return 0; }
