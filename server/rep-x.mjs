import * as echarts from 'echarts';
const c = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 600, height: 300 });
c.setOption({ animation:false, legend:{}, xAxis:{type:'category', data:['<b>x</b>&"\'']}, yAxis:{}, series:[{name:'</svg><script>alert(1)</script>',type:'bar',data:[1]}] });
console.log(c.renderToSVGString().match(/.{0,40}(alert|&lt;b|<b>).{0,40}/g));
