#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
static uint64_t s=88172645463325252ull; static uint64_t rnd(){s^=s<<13;s^=s>>7;s^=s<<17;return s;}
int main(int argc,char**argv){
  int S=4; double lf=0.9; uint64_t n=1<<24; uint64_t nb=(uint64_t)(n/lf/S);
  uint8_t *c=calloc(nb,1); uint64_t *b1=malloc(n*8),*b2=malloc(n*8);
  for(uint64_t i=0;i<n;i++){b1[i]=rnd()%nb; do b2[i]=rnd()%nb; while(b2[i]==b1[i]);}
  /* single pass first fit */
  uint64_t def=0,inb2=0; for(uint64_t i=0;i<n;i++){ if(c[b1[i]]<S)c[b1[i]]++; else if(c[b2[i]]<S){c[b2[i]]++;inb2++;} else def++; }
  printf("single pass: deferred %.3f%%  in b2 %.2f%%\n",100.0*def/n,100.0*inb2/n);
  for(uint64_t i=0;i<nb;i++)c[i]=0;
  uint8_t *second=calloc(n,1); uint64_t sec=0;
  for(uint64_t i=0;i<n;i++){ if(c[b1[i]]<S)c[b1[i]]++; else {second[i]=1;sec++;} }
  def=0; for(uint64_t i=0;i<n;i++) if(second[i]){ if(c[b2[i]]<S)c[b2[i]]++; else def++; }
  printf("two phases: second phase %.2f%%, deferred %.3f%%\n",100.0*sec/n,100.0*def/n);
  /* two phases where phase 1 stops at S-1 in b1? no */
  return 0;
}
